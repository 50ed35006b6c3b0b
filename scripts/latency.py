#!/usr/bin/env python3
"""Measures how long hane's genmove takes against the time it was given,
with one core kept busy by another process (as on a shared machine or when
the opponent engine thinks on the same box).

    scripts/latency.py [--hane target/release/hane] [--moves 8] [--no-load]

For each time control it plays `--moves` genmoves on 19x19, alternating
colours, tells the engine its remaining time with time_left as a client
would (from the wall-clock time this script measured), and reports the
longest answer against the time the move had. A measurement, not a test:
the figures go into docs/robustness.md.
"""

import argparse
import os
import signal
import subprocess
import sys
import time

from gtp_client import Engine


def busy_core():
    """A process that keeps one core busy until killed."""
    return subprocess.Popen(
        [sys.executable, "-c", "while True: pass"], start_new_session=True)


def scenario(hane, name, settings, moves, per_move_limit):
    """Plays `moves` genmoves under `settings`. `per_move_limit(remaining,
    stones)` gives the time the move has: what a referee would enforce."""
    engine = Engine([hane])
    engine.send("boardsize 19")
    engine.send("clear_board")
    engine.send(settings["command"])
    clocks = {c: dict(settings["start"]) for c in "bw"}
    worst = None
    total = 0.0
    for i in range(moves):
        colour = "bw"[i % 2]
        clock = clocks[colour]
        engine.send(f"time_left {colour} {clock['time']:.3f} {clock['stones']}")
        limit = per_move_limit(clock["time"], clock["stones"])
        started = time.monotonic()
        engine.send(f"genmove {colour}", timeout=600)
        elapsed = time.monotonic() - started
        total += elapsed
        margin = limit - elapsed
        if worst is None or margin < worst[1] - worst[0]:
            worst = (elapsed, limit)
        settings["tick"](clock, elapsed)
    engine.close()
    elapsed, limit = worst
    print(f"{name:<34} {moves:>5} {total / moves:>9.2f} {elapsed:>8.2f} "
          f"{limit:>8.2f} {limit - elapsed:>8.2f}")
    return limit - elapsed


def absolute(main):
    def tick(clock, used):
        clock["time"] = max(clock["time"] - used, 0.0)
    return {"command": f"time_settings {main} 0 0",
            "start": {"time": float(main), "stones": 0}, "tick": tick}


def byoyomi(period):
    """Japanese byo-yomi, KGS style: no main time, 3 periods of `period` s;
    every move must fit in one period to keep them all."""
    def tick(clock, used):
        clock["time"] = period
    return {"command": f"kgs-time_settings byoyomi 0 {period} 3",
            "start": {"time": float(period), "stones": 3}, "tick": tick}


def canadian(period, stones):
    def tick(clock, used):
        clock["time"] -= used
        clock["stones"] -= 1
        if clock["stones"] == 0:
            clock["time"], clock["stones"] = float(period), stones
    return {"command": f"time_settings 0 {period} {stones}",
            "start": {"time": float(period), "stones": stones}, "tick": tick}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hane", default="target/release/hane")
    parser.add_argument("--moves", type=int, default=8)
    parser.add_argument("--no-load", action="store_true",
                        help="do not keep a core busy")
    args = parser.parse_args()
    load = None if args.no_load else busy_core()
    try:
        print(f"cores: {os.cpu_count()}, busy loop on one: {load is not None}")
        print(f"{'time control':<34} {'moves':>5} {'mean s':>9} {'worst s':>8} "
              f"{'had s':>8} {'spare s':>8}")
        margins = [
            scenario(args.hane, "absolute 60 s, time_left each move",
                     absolute(60), args.moves, lambda t, s: t),
            scenario(args.hane, "absolute, 3 s left (time_left b 3 0)",
                     {"command": "time_settings 3 0 0",
                      "start": {"time": 3.0, "stones": 0},
                      "tick": lambda c, u: None},
                     args.moves, lambda t, s: t),
            scenario(args.hane, "byo-yomi 3 x 2 s (kgs-time_settings)",
                     byoyomi(2), args.moves, lambda t, s: t),
            scenario(args.hane, "canadian 10 s / 5 stones",
                     canadian(10, 5), args.moves, lambda t, s: t),
        ]
        print(f"smallest margin: {min(margins):.2f} s")
    finally:
        if load is not None:
            os.killpg(load.pid, signal.SIGTERM)
            load.wait()


if __name__ == "__main__":
    main()
