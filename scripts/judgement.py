#!/usr/bin/env python3
"""hane's judgement of positions as a client sees it, measured against a
stronger engine's: the score lead and the win rate that `hane analysis`
(KataGo's JSON protocol, one thread, Black's point of view) reports at the
root, against the same numbers from a KataGo analysis engine (the judge)
on the same queries.

Positions: held-out strong games that no training ever saw, the Tom
corpus's games of 2011 (dated by Kifu.index), one position a game at a
move number that cycles through --moves, komi 7.5, Tromp-Taylor rules.

Per hane setting it prints:
  lead off     mean |hane's lead - the judge's| (and median, 90th centile);
  side right   in positions the judge reads as --decided points or more for
               one side, the share where hane's lead names that side;
  lead corr    the correlation of hane's lead with the judge's (Pearson);
  rate off     mean |hane's win rate - the judge's|;
  split        the positions where hane's own win rate and lead name
               different sides (one judgement should not), and the same of
               the root moves searched 10 times or more;
and, against the first setting, the mean paired difference of the lead
off with its 95% interval (the same positions).

The judge's answers are kept in --judge-cache (a JSON file, by position and
visits), so that a second run asks KataGo nothing it was asked before; the
judge measures hane and teaches it nothing (docs/strength.md).

  scripts/judgement.py --tom tom.txt --index Kifu.index \\
      --judge "/work/opponents/katago/katago analysis -model M -config judge.cfg" \\
      --judge-cache judge.json --positions 100 --visits 400 \\
      --setting shipped="" --setting trained="--network data/training/net.bin"

The judge's config must report win rates as Black's
(`reportAnalysisWinratesAs = BLACK`). Nothing but the standard library.
"""
import argparse
import json
import math
import shlex
import statistics
import subprocess
import sys

from lead_steadiness import TOM_MOVE, vertex

KOMI = 7.5
# A root move counted in the split moves: one a client sees searched.
MOVE_VISITS = 10


def index_reading(fields):
    """(komi, Black won) of a Kifu.index line's fields, each None where the
    line gives none."""
    komi = black_won = None
    if len(fields) >= 6:
        try:
            komi = float(fields[4])
        except ValueError:
            pass
        result = fields[5].strip().upper()
        if result[:2] in ("B+", "W+"):
            black_won = result[0] == "B"
    return komi, black_won


def games_of_year(tom, index, year):
    """(moves, komi, Black won) of the Tom games whose Kifu.index line dates
    them `year`, distinct, in the file's order; komi and Black won are None
    where the index gives none (scripts/calibration.py keeps the games with
    both)."""
    dated = {}
    with open(index, encoding="utf-8", errors="replace") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) > 1 and fields[1][:4] == year:
                dated[fields[0]] = index_reading(fields)
    seen, out = set(), []
    with open(tom, encoding="utf-8", errors="replace") as f:
        for line in f:
            gid, _, record = line.rstrip("\n").partition("\t")
            if gid not in dated:
                continue
            moves = tuple((c, vertex(p, 19)) for c, p in TOM_MOVE.findall(record))
            if moves and moves not in seen:
                seen.add(moves)
                out.append((list(moves), *dated[gid]))
    return out


def positions(games, count, move_numbers):
    """(key, moves, komi, Black won) of up to `count` positions, one a game
    at a move number that cycles through `move_numbers`."""
    out = []
    for g, (moves, komi, black_won) in enumerate(games):
        at = move_numbers[len(out) % len(move_numbers)]
        if len(moves) <= at:
            continue
        out.append((f"{g}@{at}", moves[:at], komi, black_won))
        if len(out) >= count:
            break
    return out


def query(key, moves, visits):
    return {"id": key, "moves": [[c, v] for c, v in moves], "rules": "tromp-taylor", "komi": KOMI,
            "boardXSize": 19, "boardYSize": 19, "maxVisits": visits,
            "overrideSettings": {"reportAnalysisWinratesAs": "BLACK"}}


def run_analysis(command, queries):
    """{id: (Black's win rate, Black's lead)} of an analysis engine's answers,
    and {id: [(visits, Black's win rate, Black's lead)]} of their moves."""
    text = "".join(json.dumps(q) + "\n" for q in queries)
    out = subprocess.run(command, input=text, capture_output=True, text=True, check=True).stdout
    answers, moves = {}, {}
    for line in out.splitlines():
        r = json.loads(line)
        if "error" in r:
            sys.exit(f"{command[0]} refused a query: {r}")
        if r.get("isDuringSearch"):
            continue
        answers[r["id"]] = (r["rootInfo"]["winrate"], r["rootInfo"]["scoreLead"])
        moves[r["id"]] = [(m["visits"], m["winrate"], m["scoreLead"]) for m in r.get("moveInfos", [])]
    missing = [q["id"] for q in queries if q["id"] not in answers]
    if missing:
        sys.exit(f"{command[0]} answered no result for {missing[:5]}")
    return answers, moves


def judge(args, todo):
    try:
        with open(args.judge_cache) as f:
            cache = json.load(f)
    except FileNotFoundError:
        cache = {}
    key = lambda k: f"{k}/{args.judge_visits}"
    asked = [query(k, moves, args.judge_visits) for k, moves, *_ in todo if key(k) not in cache]
    if asked:
        print(f"the judge reads {len(asked)} positions at {args.judge_visits} visits", file=sys.stderr)
        for k, answer in run_analysis(shlex.split(args.judge), asked)[0].items():
            cache[key(k)] = answer
        with open(args.judge_cache, "w") as f:
            json.dump(cache, f)
    return {k: cache[key(k)] for k, *_ in todo}


def hane(args, setting, todo):
    command = [args.hane, "--threads", "1", "--seed", "1", *shlex.split(setting),
               "analysis", "--analysis-threads", str(args.analysis_threads)]
    return run_analysis(command, [query(k, moves, args.visits) for k, moves, *_ in todo])


def interval(diffs):
    mean = statistics.mean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else float("nan")
    return mean, mean - half, mean + half


def splits(a):
    """Whether a win rate and a lead (Black's) name different sides."""
    return a[0] != 0.5 and (a[0] > 0.5) != (a[1] > 0)


def report(name, answers, moves, judged, base_off, decided_at):
    keys = sorted(judged)
    lead_off = [abs(answers[k][1] - judged[k][1]) for k in keys]
    rate_off = [abs(answers[k][0] - judged[k][0]) for k in keys]
    decided = [k for k in keys if abs(judged[k][1]) >= decided_at]
    right = sum(1 for k in decided if (answers[k][1] > 0) == (judged[k][1] > 0))
    cut = sorted(lead_off)[int(0.9 * (len(lead_off) - 1))]
    split = sum(1 for k in keys if splits(answers[k]))
    shown = [m for k in keys for m in moves[k] if m[0] >= MOVE_VISITS]
    split_moves = [m for m in shown if splits(m[1:])]
    by_visits = sum(m[0] for m in split_moves) / max(sum(m[0] for m in shown), 1)
    corr = statistics.correlation([answers[k][1] for k in keys], [judged[k][1] for k in keys])
    line = (f"{name}: lead off {statistics.mean(lead_off):.2f} (median {statistics.median(lead_off):.2f}, "
            f"90th centile {cut:.1f}); lead corr {corr:.2f}; side right {right}/{len(decided)}"
            f" ({100 * right / max(len(decided), 1):.1f}%) where the judge reads {decided_at:g}+; "
            f"rate off {statistics.mean(rate_off):.3f}; win rate and lead name different sides in {split}/{len(keys)}"
            f" (of the moves with {MOVE_VISITS}+ visits {len(split_moves)}/{len(shown)}, {100 * by_visits:.1f}% by visits)")
    if base_off is not None:
        mean, lo, hi = interval([a - b for a, b in zip(lead_off, base_off)])
        line += f"; lead off against the first {mean:+.2f} [{lo:+.2f}, {hi:+.2f}]"
    print(line, flush=True)
    return lead_off


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hane", default="target/release/hane")
    p.add_argument("--tom", required=True, help="the Tom corpus, one game a line")
    p.add_argument("--index", required=True, help="Tom's Kifu.index, which dates the games")
    p.add_argument("--year", default="2011", help="the held-out year whose games are read")
    p.add_argument("--judge", required=True, help="a KataGo analysis engine command")
    p.add_argument("--judge-cache", required=True)
    p.add_argument("--judge-visits", type=int, default=16)
    p.add_argument("--positions", type=int, default=100)
    p.add_argument("--moves", default="40,70,100,130,160,190", help="move numbers, in turn")
    p.add_argument("--visits", type=int, default=400)
    p.add_argument("--decided", type=float, default=5.0)
    p.add_argument("--analysis-threads", type=int, default=2)
    p.add_argument("--setting", action="append", default=[], help="NAME=hane arguments (repeatable)")
    p.add_argument("--dump", help="a JSON file of every position's answers (Black's win rate and lead) by setting")
    args = p.parse_args()
    todo = positions(games_of_year(args.tom, args.index, args.year), args.positions,
                     [int(m) for m in args.moves.split(",")])
    judged = judge(args, todo)
    leads = [abs(j[1]) for j in judged.values()]
    print(f"{len(todo)} positions of {args.year}'s Tom games, the judge at {args.judge_visits} visits: "
          f"|lead| median {statistics.median(leads):.1f}, {sum(1 for x in leads if x >= args.decided)} "
          f"at {args.decided:g} or more; hane at {args.visits} visits", flush=True)
    base, dump = None, {"judge": judged}
    for setting in args.setting:
        name, _, hane_args = setting.partition("=")
        dump[name], moves = hane(args, hane_args, todo)
        off = report(name, dump[name], moves, judged, base, args.decided)
        base = off if base is None else base
    if args.dump:
        with open(args.dump, "w") as f:
            json.dump(dump, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
