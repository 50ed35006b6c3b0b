#!/usr/bin/env python3
"""How good hane's moves are, position by position, judged by a stronger
engine's network: a quick screen for a change to the search before a match.

For every test position hane (each setting given) chooses a move with
`genmove`; the judge, a KataGo GTP process (`kata-raw-nn`, one network
evaluation, no search), reads the position before the move and after it.
A move's loss is the mover's lead before it less the mover's lead after it
(KaTrain's "points lost"). The script prints, per setting, the mean loss,
the share of moves losing 3 points or more, and, against the first setting,
the mean paired difference with its 95% interval (the same positions, so
most of the judge's error cancels).

Positions: every `--every`-th move from `--from` to `--to` of the games
given: SGF files (hane's own match records: the positions it really meets;
`--mover hane` keeps only hane's turns) and/or `--tom FILE --tom-games N`
(held-out games of the Tom corpus, as examples/write_planes holds them out).

The judge measures hane, it teaches it nothing: nothing it says is trained
on. It is an opponent installed outside the project (docs/strength.md).

  scripts/move_quality.py --judge /work/opponents/katago/run.sh \\
      --sgf out/katago-baseline/*.sgf --mover hane \\
      --setting base="--playouts 2000" --setting v50="--playouts 2000 --param value_share=50"

A setting with `--policy-first` among its arguments plays the network's
first choice (a one-visit `hane analysis` query's largest `policy`), not
a search's; the setting `--game-move` plays the move the game went on
with (the strong player's, in a Tom game). `--oracle-komi=P` among a
setting's arguments is a diagnostic, not a hane setting: hane searches
each position with the komi moved by P% of the judge's own lead (Black's;
a side behind by L points plays for a loss of less than (1 - P%) L), to
ask whether a search that counts points where the game is lost or won
would choose better moves; hane has no such lead before its search.

Each setting's moves are cached in --cache (a JSON file) by setting text
and position, the judge's leads by position, so that a second run with one
more setting costs only that setting. Nothing but the standard library.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import threading

from gtp_client import Engine
from lead_steadiness import COLUMNS, held_out_games, sgf_moves


def sgf_game(path):
    """(moves, the colour hane played or None) of an SGF main line."""
    size, moves = sgf_moves(path)
    if size != 19:
        raise SystemExit(f"{path}: only 19x19 games")
    text = open(path, encoding="utf-8", errors="replace").read()
    black = re.search(r"PB\[([^\]]*)\]", text)
    white = re.search(r"PW\[([^\]]*)\]", text)
    hane = None
    if black and black.group(1).startswith("hane"):
        hane = "B"
    elif white and white.group(1).startswith("hane"):
        hane = "W"
    return moves, hane


GAME_MOVES = {}


def positions(args):
    """Each test position as the list of moves before it (the mover is the
    colour of the move that followed in the game), the move that followed
    kept in GAME_MOVES."""
    out = []
    for path in args.sgf:
        moves, hane = sgf_game(path)
        for turn in range(args.start, min(args.to, len(moves) - 1) + 1, args.every):
            colour = moves[turn][0]
            if args.mover == "hane" and colour != hane:
                turn += 1
                if turn >= len(moves):
                    continue
                colour = moves[turn][0]
            if "pass" in (v for _, v in moves[:turn]):
                continue
            out.append(moves[:turn] + [(colour, None)])
            GAME_MOVES[key_of(moves[:turn])] = moves[turn][1].upper()
    if args.tom:
        for moves in held_out_games(args.tom, args.tom_games):
            for turn in range(args.start, min(args.to, len(moves) - 1) + 1, args.every):
                if "pass" in (v for _, v in moves[:turn]):
                    continue
                out.append(moves[:turn] + [(moves[turn][0], None)])
                GAME_MOVES[key_of(moves[:turn])] = moves[turn][1].upper()
    return out


def key_of(moves):
    return " ".join(f"{c}{v}" for c, v in moves)


def set_position(engine, moves):
    engine.send("clear_board")
    for colour, v in moves:
        engine.send(f"play {colour} {v}")


def judge_lead(judge, moves, to_move):
    """The judge network's lead for Black (points) of the position after
    `moves`, `to_move` to play, averaged over the symmetries asked."""
    set_position(judge, moves)
    leads = []
    for symmetry in JUDGE_SYMMETRIES:
        answer = judge.send(f"kata-raw-nn {to_move} {symmetry}")
        for line in answer.splitlines():
            if line.startswith("whiteLead"):
                leads.append(-float(line.split()[1]))
    return sum(leads) / len(leads)


JUDGE_SYMMETRIES = [0]


POLICY_FIRST = "--policy-first"
GAME_MOVE = "--game-move"
ORACLE_KOMI = "--oracle-komi"


def policy_first_moves(args, setting, todo, cache):
    """The network's first choice in each position of `todo`: the largest
    `policy` of a one-visit `hane analysis` query (KataGo's order: rows
    from the top, pass last; -1 where a move is illegal)."""
    extra = setting.replace(POLICY_FIRST, "").strip()
    queries = [
        {"id": str(n), "moves": [[c, v] for c, v in moves[:-1]], "rules": "tromp-taylor",
         "komi": args.komi, "boardXSize": 19, "boardYSize": 19, "maxVisits": 1,
         "includePolicy": True, "initialPlayer": "B"}
        for n, moves in enumerate(todo)
    ]
    command = f"{args.hane} {extra} --threads 1 analysis"
    text = "".join(json.dumps(q) + "\n" for q in queries)
    out = subprocess.run(command, shell=True, input=text, capture_output=True, text=True,
                         check=True).stdout
    for line in out.splitlines():
        answer = json.loads(line)
        if "policy" not in answer:
            raise SystemExit(f"no policy in {line[:200]}")
        policy = answer["policy"]
        best = max(range(len(policy)), key=lambda i: policy[i])
        move = "PASS" if best == 361 else f"{COLUMNS[best % 19]}{19 - best // 19}"
        cache["moves"].setdefault(setting, {})[key_of(todo[int(answer["id"])][:-1])] = move


def choose_moves(args, setting, todo, cache, lock, black_leads):
    """hane's move in each position of `todo`, on `args.parallel` processes
    (with `--policy-first` among the setting's arguments: the network's
    first choice, no search). `black_leads`: the judge's lead for Black of
    each position, by its moves (for `--oracle-komi`)."""
    if POLICY_FIRST in setting:
        policy_first_moves(args, setting, todo, cache)
        return
    if setting.strip() == GAME_MOVE:
        for moves in todo:
            key = key_of(moves[:-1])
            cache["moves"].setdefault(setting, {})[key] = GAME_MOVES[key]
        return
    oracle = re.search(ORACLE_KOMI + r"=([0-9.]+)", setting)
    arguments = re.sub(ORACLE_KOMI + r"=[0-9.]+", "", setting)
    chunks = [todo[i::args.parallel] for i in range(args.parallel)]

    def komi_for(before):
        """The komi hane searches with: the game's, or with an oracle share
        of the judge's lead taken off (a diagnostic: see the doc)."""
        if not oracle:
            return args.komi
        komi = args.komi + float(oracle.group(1)) / 100 * black_leads[key_of(before)]
        return math.floor(komi) + 0.5

    def run(chunk):
        engine = Engine(f"{args.hane} {arguments} --threads 1 --no-suicide", "hane")
        engine.send("boardsize 19")
        engine.send(f"komi {args.komi}")
        for moves in chunk:
            set_position(engine, moves[:-1])
            engine.send(f"komi {komi_for(moves[:-1])}")
            move = engine.send(f"genmove {moves[-1][0]}", timeout=600).upper()
            with lock:
                cache["moves"].setdefault(setting, {})[key_of(moves[:-1])] = move
        engine.close()

    threads = [threading.Thread(target=run, args=(c,)) for c in chunks if c]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hane", default="target/release/hane")
    p.add_argument("--judge", required=True, help="a KataGo GTP command")
    p.add_argument("--setting", action="append", required=True,
                   help="NAME=ARGS: hane's arguments for one setting (the first is the base)")
    p.add_argument("--sgf", nargs="*", default=[])
    p.add_argument("--mover", choices=["any", "hane"], default="any")
    p.add_argument("--tom")
    p.add_argument("--tom-games", type=int, default=20)
    p.add_argument("--from", dest="start", type=int, default=20)
    p.add_argument("--to", type=int, default=220)
    p.add_argument("--every", type=int, default=10)
    p.add_argument("--komi", type=float, default=7.5)
    p.add_argument("--parallel", type=int, default=2)
    p.add_argument("--cache", default="move-quality.json")
    p.add_argument("--symmetries", default="0", help="the judge's symmetries, e.g. 0,5")
    args = p.parse_args()
    global JUDGE_SYMMETRIES
    JUDGE_SYMMETRIES = args.symmetries.split(",")

    tests = positions(args)
    if not tests:
        raise SystemExit("no positions")
    cache = {"moves": {}, "leads": {}}
    if os.path.exists(args.cache):
        cache = json.load(open(args.cache))
    lock = threading.Lock()
    settings = []
    for s in args.setting:
        name, _, text = s.partition("=")
        settings.append((name, text))

    judge = Engine(args.judge, "judge")
    judge.send("boardsize 19")
    judge.send(f"komi {args.komi}")

    def lead(moves, to_move):
        k = key_of(moves) + f" /{to_move}/" + ",".join(JUDGE_SYMMETRIES)
        if k not in cache["leads"]:
            cache["leads"][k] = judge_lead(judge, moves, to_move)
        return cache["leads"][k]

    # The positions themselves first: `--oracle-komi` searches with them.
    black_leads = {key_of(test[:-1]): lead(test[:-1], test[-1][0]) for test in tests}
    json.dump(cache, open(args.cache, "w"))
    for name, text in settings:
        known = cache["moves"].get(text, {})
        todo = [m for m in tests if key_of(m[:-1]) not in known]
        if todo:
            print(f"{name}: {len(todo)} moves to choose", file=sys.stderr)
            choose_moves(args, text, todo, cache, lock, black_leads)
            json.dump(cache, open(args.cache, "w"))

    losses = {name: [] for name, _ in settings}
    for n, test in enumerate(tests):
        before = test[:-1]
        mover = test[-1][0]
        opponent = "W" if mover == "B" else "B"
        sign = 1 if mover == "B" else -1
        lead_before = sign * black_leads[key_of(before)]
        for name, text in settings:
            move = cache["moves"][text][key_of(before)]
            if move == "RESIGN":
                move = "PASS"
            after = before + [(mover, move.lower() if move == "PASS" else move)]
            losses[name].append(lead_before - sign * lead(after, opponent))
        if n % 25 == 24:
            json.dump(cache, open(args.cache, "w"))
    json.dump(cache, open(args.cache, "w"))
    judge.close()

    base = losses[settings[0][0]]
    print(f"{len(tests)} positions")
    for name, _ in settings:
        xs = losses[name]
        mean = sum(xs) / len(xs)
        big = sum(1 for x in xs if x >= 3) / len(xs)
        line = f"{name:>12}: mean loss {mean:6.2f}, losing >= 3 points {100 * big:5.1f}%"
        if xs is not base:
            d = [a - b for a, b in zip(xs, base)]
            dm = sum(d) / len(d)
            sd = math.sqrt(sum((x - dm) ** 2 for x in d) / max(1, len(d) - 1))
            half = 1.96 * sd / math.sqrt(len(d))
            same = sum(1 for a, b in zip(xs, base) if a == b)
            line += f", against {settings[0][0]}: {dm:+.2f} [{dm - half:+.2f}, {dm + half:+.2f}]"
            line += f", same move {100 * same / len(xs):.0f}%"
        print(line)


if __name__ == "__main__":
    main()
