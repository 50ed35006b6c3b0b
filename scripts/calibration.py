#!/usr/bin/env python3
"""Whether the win rate hane shows is calibrated: among the positions it
shows as 70% for Black, does Black go on to win 70% of the games? Measured
on held-out strong games that no training saw (the Tom corpus's games of
2011, dated by Kifu.index, each at its own komi and with its recorded
result), against the outcomes alone: no other engine is asked.

Positions: one a game, at a move number that cycles through --moves (both
colours to move). Per hane setting it prints the expected calibration
error (ECE: the mean over --bins equal-width bins of |shown - won|,
weighed by the positions in the bin), the Brier score (mean squared error
against the result, the value MSE of docs/network.md's tables), the share
of positions whose shown favourite won, and the reliability table (per
bin: positions, mean shown, share won); the ECE with a 95% bootstrap
interval, and against the first setting the paired difference of the
Brier score with its interval (the same positions). With --dump, every
position's shown win rate and result as JSON.

  scripts/calibration.py --tom tom2011.txt --index Kifu.index \\
      --positions 300 --visits 100 \\
      --setting shipped="" --setting trained="--network data/training/cpu/net.bin"

Nothing but the standard library.
"""
import argparse
import json
import random
import statistics
import shlex
import subprocess
import sys

from judgement import games_of_year, positions


def shown_rates(hane, setting, todo, visits):
    """{key: Black's win rate as `hane analysis` shows it}."""
    command = [hane, "--threads", "1", "--seed", "1", *shlex.split(setting), "analysis", "--analysis-threads", "1"]
    queries = [{"id": k, "moves": [[c, v] for c, v in moves], "rules": "tromp-taylor", "komi": komi,
                "boardXSize": 19, "boardYSize": 19, "maxVisits": visits,
                "overrideSettings": {"reportAnalysisWinratesAs": "BLACK"}} for k, moves, komi, _ in todo]
    text = "".join(json.dumps(q) + "\n" for q in queries)
    out = subprocess.run(command, input=text, capture_output=True, text=True, check=True).stdout
    rates = {}
    for line in out.splitlines():
        r = json.loads(line)
        if "error" in r:
            sys.exit(f"hane refused a query: {r}")
        if r.get("isDuringSearch") or "rootInfo" not in r:
            continue
        rates[r["id"]] = r["rootInfo"]["winrate"]
    return rates


def measures(pairs, bins):
    """ECE, Brier score, favourites right and the reliability table of
    (shown, won) pairs."""
    table = [[0, 0.0, 0] for _ in range(bins)]
    for shown, won in pairs:
        b = min(bins - 1, int(shown * bins))
        table[b][0] += 1
        table[b][1] += shown
        table[b][2] += won
    n = len(pairs)
    ece = sum(abs(s - w) for c, s, w in table if c) / n
    brier = sum((s - w) ** 2 for s, w in pairs) / n
    right = sum((s > 0.5) == bool(w) for s, w in pairs if s != 0.5) / max(1, sum(s != 0.5 for s, _ in pairs))
    rows = [(i / bins, (i + 1) / bins, c, s / c, w / c) for i, (c, s, w) in enumerate(table) if c]
    return ece, brier, right, rows


def paired_interval(diffs, draws=2000, seed=1):
    """The mean of paired differences and its 95% bootstrap interval."""
    rng = random.Random(seed)
    means = sorted(statistics.fmean(rng.choices(diffs, k=len(diffs))) for _ in range(draws))
    return statistics.fmean(diffs), means[int(0.025 * draws)], means[int(0.975 * draws) - 1]


def ece_interval(pairs, bins, draws=1000, seed=1):
    """The ECE's 95% bootstrap interval (positions drawn again)."""
    rng = random.Random(seed)
    eces = sorted(measures(rng.choices(pairs, k=len(pairs)), bins)[0] for _ in range(draws))
    return eces[int(0.025 * draws)], eces[int(0.975 * draws) - 1]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hane", default="target/release/hane")
    p.add_argument("--tom", required=True, help="the Tom corpus, one game a line")
    p.add_argument("--index", required=True, help="Tom's Kifu.index: dates, komis and results")
    p.add_argument("--year", default="2011", help="the held-out year whose games are read")
    p.add_argument("--positions", type=int, default=300)
    p.add_argument("--moves", default="40,71,100,131,160,191", help="move numbers, in turn")
    p.add_argument("--visits", type=int, default=100)
    p.add_argument("--bins", type=int, default=10)
    p.add_argument("--setting", action="append", default=[], help="NAME=hane arguments (repeatable)")
    p.add_argument("--dump", help="a JSON file of every position's shown win rate and result, by setting")
    args = p.parse_args()
    # Only games whose index line gives both a komi and a result.
    games = [g for g in games_of_year(args.tom, args.index, args.year) if None not in g[1:]]
    todo = positions(games, args.positions, [int(m) for m in args.moves.split(",")])
    print(f"{len(todo)} positions of {len(games)} games of {args.year} with a result; {args.visits} visits", flush=True)
    dump, first = {}, None
    for spec in args.setting or ["default="]:
        name, _, setting = spec.partition("=")
        rates = shown_rates(args.hane, setting, todo, args.visits)
        pairs = [(rates[k], 1 if won else 0) for k, _, _, won in todo if k in rates]
        ece, brier, right, rows = measures(pairs, args.bins)
        black_won = sum(w for _, w in pairs) / len(pairs)
        ece_lo, ece_hi = ece_interval(pairs, args.bins)
        print(f"{name}: {len(pairs)} positions, ECE {ece:.3f} [{ece_lo:.3f}, {ece_hi:.3f}], Brier {brier:.4f}, "
              f"favourite won {right:.1%}, shown {min(s for s, _ in pairs):.2f} to {max(s for s, _ in pairs):.2f} "
              f"(Black won {black_won:.1%})")
        squares = {k: (rates[k] - (1 if won else 0)) ** 2 for k, _, _, won in todo if k in rates}
        if first is None:
            first = (name, squares)
        else:
            both = [k for k in squares if k in first[1]]
            mean, low, high = paired_interval([squares[k] - first[1][k] for k in both])
            print(f"  Brier against {first[0]}, paired over {len(both)} positions: {mean:+.4f} [{low:+.4f}, {high:+.4f}]")
        for lo, hi, c, s, w in rows:
            print(f"  {lo:.1f}-{hi:.1f}: {c:4d} positions, shown {s:.3f}, won {w:.3f}")
        dump[name] = {k: [rates.get(k), won] for k, _, _, won in todo}
    if args.dump:
        with open(args.dump, "w") as f:
            json.dump(dump, f)


if __name__ == "__main__":
    main()
