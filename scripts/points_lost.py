#!/usr/bin/env python3
"""How steady hane's score lead is from move to move, as a reviewing tool
sees it: KaTrain's "points lost" by a move is the mover's scoreLead before
it minus the mover's scoreLead after it. Each game is sent to
`hane analysis` as one query over every turn (KataGo's JSON protocol); the
script prints, per game and over all, the spread of the points lost (the
standard deviation, the median of their size, the share of moves that read
as mistakes of 2 points or more either way), and how often the lead's
sign disagrees with the win rate (a side that wins more often than not
but is said to trail).

  scripts/points_lost.py [--hane target/release/hane] [--visits 1000] GAME.sgf...

Only the main line's B[]/W[] moves are read (no setup, no variations):
enough for match records. Nothing but the standard library.
"""
import argparse
import json
import math
import re
import subprocess
import sys


def moves_of(sgf):
    """(size, komi, [(colour, vertex)]) of an SGF game's main line."""
    size = int(re.search(r"SZ\[(\d+)\]", sgf).group(1))
    komi_match = re.search(r"KM\[([-0-9.]+)\]", sgf)
    komi = float(komi_match.group(1)) if komi_match else 7.5
    moves = []
    for colour, point in re.findall(r";\s*([BW])\[([a-z]{0,2})\]", sgf):
        if point == "" or (point == "tt" and size <= 19):
            moves.append((colour, "pass"))
            continue
        col = "ABCDEFGHJKLMNOPQRSTUVWXYZ"[ord(point[0]) - ord("a")]
        row = size - (ord(point[1]) - ord("a"))
        moves.append((colour, f"{col}{row}"))
    return size, komi, moves


def analyse(hane, size, komi, moves, visits):
    """Black's scoreLead and win rate per turn 0..len(moves)."""
    query = {
        "id": "g",
        "moves": [[c, v] for c, v in moves],
        "rules": "tromp-taylor",
        "komi": komi,
        "boardXSize": size,
        "boardYSize": size,
        "maxVisits": visits,
        "analyzeTurns": list(range(len(moves) + 1)),
        "overrideSettings": {"reportAnalysisWinratesAs": "BLACK"},
    }
    out = subprocess.run(
        [hane, "--threads", "1", "--seed", "1", "analysis"],
        input=json.dumps(query) + "\n",
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    turns = {}
    for line in out.splitlines():
        answer = json.loads(line)
        if "error" in answer or "warning" in answer:
            print(f"  {answer}", file=sys.stderr)
            continue
        info = answer["rootInfo"]
        turns[answer["turnNumber"]] = (info["scoreLead"], info["winrate"])
    return [turns[t] for t in sorted(turns)]


def losses(moves, turns):
    """Points lost by each move, from the mover's side."""
    lost = []
    for t, (colour, _) in enumerate(moves):
        sign = 1 if colour == "B" else -1
        before, after = turns[t][0], turns[t + 1][0]
        lost.append(sign * (before - after))
    return lost


def disagreements(turns):
    """Turns whose lead and win rate name different sides (a win rate
    within a point of even is no side)."""
    return sum(
        1 for lead, rate in turns if abs(rate - 0.5) > 0.01 and (lead > 0) != (rate > 0.5)
    )


def spread(values):
    """The standard deviation of the points lost, the median of their
    size, and the share of moves that read as a mistake of 2 points or
    more (either way)."""
    n = len(values)
    mean = sum(values) / n
    sizes = sorted(abs(v) for v in values)
    median = (sizes[(n - 1) // 2] + sizes[n // 2]) / 2
    return (
        math.sqrt(sum((v - mean) ** 2 for v in values) / n),
        median,
        sum(1 for v in sizes if v >= 2) / n,
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hane", default="target/release/hane")
    parser.add_argument("--visits", type=int, default=1000)
    parser.add_argument("games", nargs="+")
    args = parser.parse_args()
    all_lost, all_turns, all_disagree = [], 0, 0
    for path in args.games:
        with open(path, encoding="utf-8", errors="replace") as f:
            size, komi, moves = moves_of(f.read())
        turns = analyse(args.hane, size, komi, moves, args.visits)
        lost = losses(moves, turns)
        stdev, median, big = spread(lost)
        wrong = disagreements(turns)
        print(
            f"{path}: {len(moves)} moves, points lost sd {stdev:.2f}, median size {median:.2f}, "
            f"2 or more {100 * big:.0f}%, lead against win rate {wrong} of {len(turns)}"
        )
        all_lost += lost
        all_turns += len(turns)
        all_disagree += wrong
    stdev, median, big = spread(all_lost)
    print(
        f"all: {len(all_lost)} moves, points lost sd {stdev:.2f}, median size {median:.2f}, "
        f"2 or more {100 * big:.0f}%, lead against win rate {all_disagree} of {all_turns}"
    )


if __name__ == "__main__":
    main()
