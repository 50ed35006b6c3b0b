#!/usr/bin/env python3
"""How often an engine's prior ranks a strong player's move first.

Reads games of one game a line (the Tom corpus of yenw/computer-go-dataset:
`ID<TAB>;B[pd];W[dc];...`, 19x19), and for every STEP-th position of moves
FIRST..LAST asks the engine over GTP for its analysis (`lz-analyze` with
`minmoves`, so that every legal move is listed with its prior, searched or
not) and compares the move with the highest prior with the one played.
Use games the fit never saw (examples/fit_prior holds out every tenth game
of those it reads, and reads none of the older months if told --games).

Example:
  scripts/prior_accuracy.py --engine "target/release/hane --threads 1" \\
      --games 40 CORPUS/Tom/kifu/2004-01

Prints top-1, top-3 and top-10 rates with the number of positions.
"""
import argparse
import subprocess
import sys

LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def gtp_vertex(sgf, size=19):
    col = ord(sgf[0]) - ord("a")
    row = size - (ord(sgf[1]) - ord("a"))
    return f"{LETTERS[col]}{row}"


def games(path, limit):
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if limit <= 0:
                return
            moves = line.split("\t")[-1].strip()
            parsed = []
            for node in moves.split(";"):
                node = node.strip()
                if len(node) >= 5 and node[0] in "BW" and node[1] == "[" and node[4] == "]":
                    parsed.append((node[0], gtp_vertex(node[2:4])))
                elif node:
                    parsed.append((node[0], "pass"))
            if parsed:
                limit -= 1
                yield parsed


class Engine:
    def __init__(self, command):
        self.p = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def response(self):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if line == "":
                raise RuntimeError("engine closed")
            if line.strip() == "" and lines:
                return lines
            if line.strip():
                lines.append(line.strip())

    def command(self, line):
        self.send(line)
        return self.response()

    def priors(self, color):
        """The moves of the first analysis line, by prior, best first."""
        self.send(f"lz-analyze {color} 1 minmoves 400")
        first = self.p.stdout.readline()  # "="
        info = self.p.stdout.readline()
        while not info.startswith("info"):
            info = self.p.stdout.readline()
        self.send("name")  # ends the analysis
        self.response()
        moves = []
        for chunk in info.split("info ")[1:]:
            words = chunk.split()
            fields = dict(zip(words[0::2], words[1::2]))
            if "move" in fields and "prior" in fields:
                moves.append((int(fields["prior"]), fields["move"]))
        moves.sort(key=lambda m: -m[0])
        return [m for _, m in moves]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, help="the engine's command line")
    ap.add_argument("--games", type=int, default=40, help="games read from the file")
    ap.add_argument("--first", type=int, default=6, help="first move looked at")
    ap.add_argument("--last", type=int, default=220, help="last move looked at")
    ap.add_argument("--step", type=int, default=7, help="every STEP-th move")
    ap.add_argument("file", help="a file of one game a line")
    args = ap.parse_args()
    engine = Engine(args.engine)
    engine.command("boardsize 19")
    hits = {1: 0, 3: 0, 10: 0}
    n = 0
    for game in games(args.file, args.games):
        engine.command("clear_board")
        for i, (color, vertex) in enumerate(game, start=1):
            if args.first <= i <= args.last and (i - args.first) % args.step == 0 \
                    and vertex != "pass":
                ranked = engine.priors(color.lower())
                n += 1
                for k in hits:
                    hits[k] += vertex in ranked[:k]
            if engine.command(f"play {color} {vertex}")[0].startswith("?"):
                break
    if n == 0:
        sys.exit("no positions")
    print(f"{n} positions: top-1 {100 * hits[1] / n:.1f}%, "
          f"top-3 {100 * hits[3] / n:.1f}%, top-10 {100 * hits[10] / n:.1f}%")


if __name__ == "__main__":
    main()
