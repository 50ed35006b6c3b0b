#!/usr/bin/env python3
"""GNU Go plays itself: the game records the learned prior is fitted to.

Each game opens with a few random moves (the first lines left out, so that
the openings differ; GNU Go alone would play the same game again), then GNU
Go plays both colours until two passes. Only GNU Go's own moves are taught
from (the random ones are marked with a comment). Every game is written as
SGF into --out as game-NNNN.sgf; a game already there is skipped, so an
interrupted run resumes.

Example (the corpus of data/prior-gammas.txt, see docs/strength.md):
  scripts/selfplay.py --size 19 --games 21 --random-moves 4 --out data/selfplay/19x19
  scripts/selfplay.py --size 9 --games 158 --random-moves 2 --out data/selfplay/9x9
"""

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gtp_client import Engine, EngineError  # noqa: E402
from match import GTP_LETTERS as LETTERS, sgf_point  # noqa: E402

GNUGO = "/usr/games/gnugo --mode gtp --chinese-rules"


def random_move(engine, colour, size, rng):
    """A random legal move off the first two lines (the first line on
    boards under 9)."""
    margin = 2 if size >= 9 else 1
    candidates = [f"{LETTERS[c]}{r + 1}" for c in range(margin, size - margin)
                  for r in range(margin, size - margin)]
    rng.shuffle(candidates)
    for vertex in candidates:
        try:
            engine.send(f"play {colour} {vertex}")
            return vertex
        except EngineError as e:
            if e.kind != "error":
                raise
    return None


def play(engine, size, komi, random_moves, rng):
    engine.send(f"boardsize {size}")
    engine.send("clear_board")
    engine.send(f"komi {komi}")
    moves, passes, colour = [], 0, "B"
    while passes < 2 and len(moves) < 2 * size * size:
        if len(moves) < random_moves:
            vertex = random_move(engine, colour, size, rng)
            moves.append((colour, vertex, True))
        else:
            vertex = engine.send(f"genmove {colour}", timeout=300)
            if vertex.lower() == "resign":
                break
            moves.append((colour, vertex, False))
        passes = passes + 1 if vertex.lower() == "pass" else 0
        colour = "W" if colour == "B" else "B"
    return moves


def write_sgf(path, size, komi, level, moves):
    nodes = "".join(
        f";{c}[{sgf_point(v, size)}]" + ("C[random]" if rnd else "") for c, v, rnd in moves)
    with open(path, "w") as f:
        f.write(f"(;FF[4]GM[1]SZ[{size}]KM[{komi}]RU[Chinese]"
                f"PB[GNU Go level {level}]PW[GNU Go level {level}]{nodes})\n")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--size", type=int, default=19)
    p.add_argument("--komi", type=float, default=7.5)
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--level", type=int, default=10)
    p.add_argument("--random-moves", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True)
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    engine = None
    for i in range(args.games):
        path = os.path.join(args.out, f"game-{i:04d}.sgf")
        if os.path.exists(path):
            continue
        rng = random.Random(args.seed * 100003 + i)
        # GNU Go's own seed too (for its few random choices), per process.
        if engine is None:
            engine = Engine(f"{GNUGO} --level {args.level} --seed {args.seed * 1009 + i}", "gnugo")
        try:
            moves = play(engine, args.size, args.komi, args.random_moves, rng)
        except EngineError as e:
            print(f"game {i}: {e}", file=sys.stderr)
            engine.close()
            engine = None
            continue
        write_sgf(path, args.size, args.komi, args.level, moves)
        print(f"game {i}: {len(moves)} moves", flush=True)
    if engine:
        engine.close()


if __name__ == "__main__":
    main()
