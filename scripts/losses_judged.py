#!/usr/bin/env python3
"""Where a match's lost games were lost, by a stronger engine's judgement.

For every game hane lost in a match folder (scripts/match.py's results.tsv
and game-NNNN.sgf), asks a KataGo analysis engine (the judge) for hane's
winning chance and lead in the game's last position and a few moves
before it (--back), and prints, for each distance, how many of those
positions the judge gives hane more than 20% and more than 50%, and the
games where it does. A lost game the judge still reads as won at the end
was resigned too early; one it reads as won a few moves before was thrown
away in those moves.

Example (docs/strength.md, "Where the guard's games are lost"):
  scripts/losses_judged.py out/m9-s33-pachi --visits 64 \\
      --judge "katago analysis -model M -config judge.cfg"
"""

import argparse
import csv
import shlex

from judgement import run_analysis
from lead_steadiness import sgf_moves


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("folder", help="a match's --out folder")
    p.add_argument("--judge", required=True, help="a KataGo analysis engine command")
    p.add_argument("--visits", type=int, default=64)
    p.add_argument("--komi", type=float, default=7.5)
    p.add_argument("--back", default="0,4,8", help="moves before the end to judge, comma-separated")
    args = p.parse_args()
    backs = [int(b) for b in args.back.split(",")]

    with open(f"{args.folder}/results.tsv") as f:
        lost = [r for r in csv.DictReader(f, delimiter="\t") if r["hane_outcome"] == "lost"]
    queries, asked = [], []
    for r in lost:
        size, moves = sgf_moves(f"{args.folder}/game-{int(r['game']):04d}.sgf")
        for back in backs:
            if len(moves) - back < 0:
                continue
            key = f"{r['game']}-{back}"
            asked.append((key, r["game"], back, r["hane_colour"]))
            queries.append({"id": key, "moves": [list(m) for m in moves[:len(moves) - back]],
                            "rules": "tromp-taylor", "komi": args.komi, "boardXSize": size,
                            "boardYSize": size, "maxVisits": args.visits,
                            "overrideSettings": {"reportAnalysisWinratesAs": "BLACK"}})
    judged = run_analysis(shlex.split(args.judge), queries)[0]

    print(f"{len(lost)} games lost in {args.folder}; the judge at {args.visits} visits, from hane's side")
    for back in backs:
        rows = []
        for key, game, at, colour in asked:
            if at == back:
                chance, lead = judged[key]
                if colour == "W":
                    chance, lead = 1 - chance, -lead
                rows.append((chance, lead, game))
        won = sorted((r for r in rows if r[0] > 0.5), reverse=True)
        print(f"{back} moves before the end: {len(rows)} positions, hane over 20% in "
              f"{sum(r[0] > 0.2 for r in rows)}, over 50% in {len(won)}"
              + "".join(f"; game {g} {c:.2f} ({l:+.1f})" for c, l, g in won))


if __name__ == "__main__":
    main()
