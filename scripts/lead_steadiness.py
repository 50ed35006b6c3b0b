#!/usr/bin/env python3
"""How far a reviewer can trust hane's score lead, measured as the clients
issue states its targets, through `hane analysis` (KataGo's JSON protocol,
one thread, Black's point of view):

points-lost: KaTrain's "points lost" of strong players' moves: the mover's
    scoreLead before the move minus the mover's scoreLead after it, each
    from its own search, for every 10th move from 20 to 200 of held-out
    games of the Tom corpus (the games write_planes holds out: every 50th
    distinct game). A strong player's move should rarely read as a loss of
    3 points or more. Prints the median and the share at 3 or more.

seeds: the root's scoreLead of the same position searched with two seeds:
    19x19 positions (move 100 of held-out games) and 9x9 ones (move 20 of
    data/selfplay/9x9's games); prints the mean difference.

    scripts/lead_steadiness.py points-lost --tom tom.txt --games 20 --visits 400
    scripts/lead_steadiness.py seeds --tom tom.txt --positions 20 --visits 400 \\
        --visits-9x9 1000 --sgf-9x9 data/selfplay/9x9

--param NAME=VALUE (repeatable) and --network FILE go to hane, so that two
settings or two networks of one binary can be compared. Nothing but the standard library.
"""

import argparse
import glob
import json
import re
import statistics
import subprocess
import sys

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
TOM_MOVE = re.compile(r";([BW])\[([a-s]{2})?\]")


def vertex(point, size):
    if not point or (point == "tt" and size <= 19):
        return "pass"
    return f"{COLUMNS[ord(point[0]) - 97]}{size - (ord(point[1]) - 97)}"


def held_out_games(path, count, every=50):
    """The moves of the first `count` held-out games of a Tom file: every
    `every`-th distinct game, as examples/write_planes splits them."""
    seen, distinct, out = set(), 0, []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            record = line.rstrip("\n").partition("\t")[2]
            moves = tuple((c, vertex(p, 19)) for c, p in TOM_MOVE.findall(record))
            if not moves or moves in seen:
                continue
            seen.add(moves)
            if distinct % every == 0:
                out.append(list(moves))
                if len(out) >= count:
                    break
            distinct += 1
    return out


def sgf_moves(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    size = int(re.search(r"SZ\[(\d+)\]", text).group(1))
    return size, [(c, vertex(p, size)) for c, p in re.findall(r";\s*([BW])\[([a-z]{0,2})\]", text)]


def analyse(args, queries, seed):
    """scoreLead (Black's) by (id, turn) of every query's turns."""
    command = [args.hane, "--threads", "1", "--seed", str(seed)]
    for p in args.param:
        command += ["--param", p]
    if args.network:
        command += ["--network", args.network]
    command += ["analysis", "--analysis-threads", str(args.analysis_threads)]
    text = "".join(json.dumps(q) + "\n" for q in queries)
    out = subprocess.run(command, input=text, capture_output=True, text=True, check=True).stdout
    leads = {}
    for line in out.splitlines():
        r = json.loads(line)
        if "error" in r:
            sys.exit(f"hane refused a query: {r}")
        leads[(r["id"], r["turnNumber"])] = r["rootInfo"]["scoreLead"]
    return leads


def query(qid, moves, size, visits, turns):
    return {"id": qid, "moves": [[c, v] for c, v in moves], "rules": "tromp-taylor", "komi": 7.5,
            "boardXSize": size, "boardYSize": size, "maxVisits": visits, "analyzeTurns": turns,
            "overrideSettings": {"reportAnalysisWinratesAs": "BLACK"}}


def points_lost(args):
    games = held_out_games(args.tom, args.games)
    queries, moved = [], []
    for g, moves in enumerate(games):
        turns = []
        for k in range(20, min(201, len(moves)), 10):
            turns += [k, k + 1]
            moved.append((str(g), k, moves[k][0]))
        queries.append(query(str(g), moves, 19, args.visits, turns))
    leads = analyse(args, queries, 1)
    lost = []
    for gid, k, colour in moved:
        sign = 1 if colour == "B" else -1
        lost.append(sign * (leads[(gid, k)] - leads[(gid, k + 1)]))
    big = sum(1 for x in lost if x >= 3) / len(lost)
    print(f"points lost of {len(lost)} strong moves ({len(games)} held-out games, {args.visits} visits, "
          f"params {args.param or 'default'}): median {statistics.median(lost):.2f}, "
          f"median size {statistics.median(abs(x) for x in lost):.2f}, "
          f"at 3 or more {100 * big:.1f}%, at 3 or more either way "
          f"{100 * sum(1 for x in lost if abs(x) >= 3) / len(lost):.1f}%")


def seeds(args):
    positions = []
    for g, moves in enumerate(held_out_games(args.tom, args.positions)):
        if len(moves) > 100:
            positions.append(query(f"19-{g}", moves[:100], 19, args.visits, [100]))
    for path in sorted(glob.glob(f"{args.sgf_9x9}/*.sgf"))[: args.positions]:
        size, moves = sgf_moves(path)
        if size == 9 and len(moves) > 20:
            positions.append(query(f"9-{path}", moves[:20], 9, args.visits_9x9, [20]))
    one, two = analyse(args, positions, 1), analyse(args, positions, 2)
    for prefix, visits in (("19-", args.visits), ("9-", args.visits_9x9)):
        keys = [k for k in one if k[0].startswith(prefix)]
        if keys:
            diffs = [abs(one[k] - two[k]) for k in keys]
            print(f"{prefix[:-1]}x{prefix[:-1]} at {visits} visits, {len(keys)} positions, seeds 1 and 2 "
                  f"(params {args.param or 'default'}): mean difference {statistics.mean(diffs):.2f}, "
                  f"median {statistics.median(diffs):.2f}, largest {max(diffs):.2f}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("measure", choices=["points-lost", "seeds"])
    p.add_argument("--hane", default="target/release/hane")
    p.add_argument("--tom", required=True, help="the Tom corpus, one game a line")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--positions", type=int, default=20)
    p.add_argument("--visits", type=int, default=400)
    p.add_argument("--visits-9x9", type=int, default=1000)
    p.add_argument("--sgf-9x9", default="data/selfplay/9x9")
    p.add_argument("--analysis-threads", type=int, default=1)
    p.add_argument("--param", action="append", default=[])
    p.add_argument("--network", default=None, help="a weights file in place of the built-in network")
    args = p.parse_args()
    points_lost(args) if args.measure == "points-lost" else seeds(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
