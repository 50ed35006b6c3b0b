#!/usr/bin/env python3
"""How much of a sudden-death clock hane spends on a busy machine, as the
client's clock counts it (issue 74 item 14).

Two hane engines play one 19x19 game, one thread each, under
`time_settings SECONDS 0 0` and no `time_left` (gogui-twogtp's way: each
engine keeps its own reckoning), while --busy processes spin and a disk
writer writes and syncs a file beside them. The time a side used is the wall
time from writing each `genmove` to reading its answer, summed over the
game: what a client's clock charges, stalls included. Neither engine
resigns, so the game runs to two passes (or --max-moves).

    scripts/clock_under_load.py [--hane target/release/hane] [--seconds 5]
        [--busy 4] [--no-disk] [--games 1]

Prints one line a game: the moves, each side's time used and its share of
the clock, the longest move; and whether a side went over --share (0.85).
A measurement, not a test: the figures go into docs/robustness.md.
"""

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time

from gtp_client import Engine


def busy_loops(count):
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
            for _ in range(count)]


def disk_writer(folder):
    """Writes 64 MB, syncs, starts again, until killed."""
    path = os.path.join(folder, "disk-load")
    code = ("import os\nblock = os.urandom(1 << 20)\n"
            f"while True:\n    with open({path!r}, 'wb') as f:\n"
            "        for _ in range(64):\n            f.write(block)\n"
            "        f.flush()\n        os.fsync(f.fileno())\n")
    return subprocess.Popen([sys.executable, "-c", code], start_new_session=True)


def play(hane, seconds, max_moves, seed):
    engines = {c: Engine([hane, "--threads", "1", "--resign", "0", "--seed", str(seed + i)])
               for i, c in enumerate("bw")}
    for engine in engines.values():
        for command in ("boardsize 19", "komi 7.5", "clear_board", f"time_settings {seconds} 0 0"):
            engine.send(command)
    used = {"b": 0.0, "w": 0.0}
    longest = 0.0
    passes, moves = 0, 0
    colour = "b"
    while moves < max_moves and passes < 2:
        started = time.monotonic()
        vertex = engines[colour].send(f"genmove {colour}", timeout=4 * seconds + 30)
        elapsed = time.monotonic() - started
        used[colour] += elapsed
        longest = max(longest, elapsed)
        moves += 1
        if vertex.lower() == "resign":
            break
        passes = passes + 1 if vertex.lower() == "pass" else 0
        other = "w" if colour == "b" else "b"
        engines[other].send(f"play {colour} {vertex}")
        colour = other
    for engine in engines.values():
        engine.close()
    return moves, used, longest


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hane", default="target/release/hane")
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--busy", type=int, default=4, help="busy loops beside the game")
    p.add_argument("--no-disk", action="store_true", help="no disk writer")
    p.add_argument("--games", type=int, default=1)
    p.add_argument("--max-moves", type=int, default=600)
    p.add_argument("--share", type=float, default=0.85)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        load = busy_loops(args.busy) + ([] if args.no_disk else [disk_writer(folder)])
        try:
            print(f"cores: {os.cpu_count()}; busy loops: {args.busy}; disk writer: {not args.no_disk}; "
                  f"sudden death {args.seconds:g} s a side, no time_left", flush=True)
            over = 0
            for game in range(args.games):
                moves, used, longest = play(args.hane, args.seconds, args.max_moves, 1 + 2 * game)
                shares = {c: used[c] / args.seconds for c in used}
                over += sum(1 for s in shares.values() if s > args.share)
                print(f"game {game + 1}: {moves} moves; Black used {used['b']:.2f} s ({shares['b']:.0%}), "
                      f"White {used['w']:.2f} s ({shares['w']:.0%}); longest move {longest:.3f} s", flush=True)
            print(f"sides over {args.share:.0%} of their time: {over} of {2 * args.games}")
        finally:
            for process in load:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


if __name__ == "__main__":
    main()
