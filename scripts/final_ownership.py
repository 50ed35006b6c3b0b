#!/usr/bin/env python3
"""The ownership targets of the network's ownership head: for every game of
the Tom corpus (one game a line, `ID<TAB>;B[pd];W[dc];...`, 19x19) or of a
slice of the packed corpus (scripts/pack_corpus.py's `slice-NNN.hgm.xz`:
Tom's games and TYGEM's), who owns each point at the game's end, as hane's
own search of the final position reads it (`hane analysis`, KataGo's JSON
protocol, with `includeOwnership`).

Most of the corpus's games end by resignation, with dead stones still on
the board and borders open: the owner of a point is then what the search's
playouts from the final position make of it, Black's share of them from -1
(White's in every playout) to +1. Games that were counted out end settled,
and the playouts agree with the count.

Output, one line a game whose moves hane could replay: the game's ID (a
Tom game's as its index gives it; a TYGEM game's as `tygem-ID`, since the
two indexes number their games apart), a tab, then the 361 points'
ownership for Black as whole hundredths (-100 to 100), space-separated, in KataGo's order (row 19 first, left to right). A
game with an illegal move (under Tromp-Taylor with positional superko) is
left out and counted on stderr. examples/write_planes reads the file with
`--ownership`.

    scripts/final_ownership.py --hane target/release/hane \
        --out ownership.txt --visits 64 tom.txt
    scripts/final_ownership.py --out ownership-tygem-1.txt --source tygem \
        slices/slice-001.hgm.xz

`--source` keeps the games of one source (a slice's); `--skip FILE` leaves
out the games that already have a line in FILE (an earlier run's output),
so that a run stopped part way can be finished by a second one.
"""

import argparse
import json
import lzma
import os
import re
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pack_corpus import PASS, TOM, decode_games  # noqa: E402
from pack_ownership import ownership_id  # noqa: E402

COLUMNS = "ABCDEFGHJKLMNOPQRST"
MOVE = re.compile(r";([BW])\[([a-s]{2})?\]")


def vertex(column, row):
    """A point as SGF counts it (from 0, row 0 the top; PASS for a pass)
    as GTP's vertex."""
    if column >= PASS or row >= PASS:
        return "pass"
    return f"{COLUMNS[column]}{19 - row}"


def line_games(path):
    """(id, GTP moves, source) for every line of a Tom file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            game_id, _, record = line.rstrip("\n").partition("\t")
            moves = [[c, vertex(ord(p[0]) - ord("a"), ord(p[1]) - ord("a")) if p else "pass"]
                     for c, p in MOVE.findall(record)]
            yield game_id, moves, "tom"


def slice_games(path):
    """(id, GTP moves, source) for every game of a packed slice, named as
    pack_ownership.py looks them up."""
    with open(path, "rb") as f:
        data = lzma.decompress(f.read())
    for game in decode_games(data):
        moves = [["BW"[i % 2], vertex(col, row)] for i, (col, row) in enumerate(game["moves"])]
        yield ownership_id(game), moves, "tom" if game["source"] == TOM else "tygem"


def queries(paths, komi, source=None, skip=frozenset()):
    """(id, query) for every game of the files (of `source` only, where
    given), but those in `skip`."""
    for path in paths:
        games = slice_games(path) if path.endswith(".hgm.xz") else line_games(path)
        for game_id, moves, game_source in games:
            if not game_id or not moves or game_id in skip:
                continue
            if source and game_source != source:
                continue
            yield game_id, {
                "id": game_id,
                "moves": moves,
                "rules": "tromp-taylor",
                "komi": komi,
                "boardXSize": 19,
                "boardYSize": 19,
                "includeOwnership": True,
            }


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hane", default="target/release/hane")
    p.add_argument("--out", required=True)
    p.add_argument("--visits", type=int, default=64,
                   help="playouts a final position (default 64)")
    p.add_argument("--analysis-threads", type=int, default=2)
    p.add_argument("--games", type=int, default=0, help="at most this many (0: all)")
    p.add_argument("--first-game", type=int, default=0,
                   help="the games before this one (of those kept) left out: a later stretch of a slice, "
                        "as write_planes --first-game takes it")
    p.add_argument("--source", choices=["tom", "tygem"], help="only this source's games")
    p.add_argument("--skip", help="an earlier output: its games are left out")
    p.add_argument("files", nargs="+")
    args = p.parse_args()

    # The komi does not change the ownership; the policy prior is left
    # out, since only the playouts' ownership is read.
    command = [args.hane, "analysis", "--analysis-threads", str(args.analysis_threads),
               "--playouts", str(args.visits), "--seed", "1",
               "--param", "prior_network=0"]
    engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, bufsize=1)
    errors = []
    skip = set()
    if args.skip:
        with open(args.skip, encoding="utf-8") as f:
            skip = {line.partition("\t")[0] for line in f}

    def read_errors():
        for line in engine.stderr:
            errors.append(line)

    threading.Thread(target=read_errors, daemon=True).start()

    def feed():
        # The stretch [first_game, first_game + games) of the games kept,
        # counted before `--skip` so that a finishing run asks the same.
        for index, (game_id, query) in enumerate(queries(args.files, 7.5, args.source)):
            if args.games and index >= args.first_game + args.games:
                break
            if index < args.first_game or game_id in skip:
                continue
            engine.stdin.write(json.dumps(query, separators=(",", ":")) + "\n")
        engine.stdin.close()

    threading.Thread(target=feed, daemon=True).start()
    written = refused = warned = 0
    start = time.time()
    with open(args.out, "w") as out:
        for line in engine.stdout:
            response = json.loads(line)
            # A warning (a move that repeats a position, replayed as the
            # game's own rules allowed it) comes before the game's answer.
            if "warning" in response:
                warned += 1
                continue
            if "error" in response or "ownership" not in response:
                refused += 1
                continue
            hundredths = " ".join(str(round(v * 100)) for v in response["ownership"])
            out.write(f"{response['id']}\t{hundredths}\n")
            written += 1
            if written % 2000 == 0:
                print(f"{written} games, {time.time() - start:.0f} s", file=sys.stderr)
    engine.wait()
    print(f"{written} games written, {refused} refused (an illegal move or a bad line), "
          f"{warned} warnings (a move that repeats a position, replayed), {time.time() - start:.0f} s",
          file=sys.stderr)
    warnings = [e for e in errors if "warn" in e.lower() or "error" in e.lower()]
    if warnings:
        print("hane said, first lines:\n" + "".join(warnings[:5]), file=sys.stderr)
    return 0 if engine.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
