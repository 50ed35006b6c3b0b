#!/usr/bin/env python3
"""Plays hane against GNU Go (or any GTP engine) and reports the result.

Uses gogui-twogtp when it is on PATH (unless --no-twogtp, --parallel,
--sprt or --clock), otherwise drives both engines itself over GTP
(gtp_client.py), --parallel games at a time. Either way it prints one line
per finished game with the running score and its interval (with twogtp, read
from its game.dat as it grows; twogtp resumes a match whose game.dat is
already in --out). Colours alternate; every game is written as SGF
into --out, with a results table (results.tsv: one row a game from hane's
side, won/lost and hane's margin, whichever route played it), a summary
(summary.txt) and a plot (winrate.png: the win rate with its 95% band and
the seconds a move; needs matplotlib: `pip install -r scripts/requirements.txt`).
A finished match is not played again: run the same command to redraw its
table, summary and plot from the games in --out. The own driver resumes a
match cut short (a session's end, a machine given back, --stop-after):
the games in results.tsv are kept, and a game in flight, saved after every
move (game-NNNN.partial.json: its moves, each side's thinking time and
clock), is set up again in fresh engines by replaying its moves and
played on.

The opponent by default is GNU Go (--gnugo-level 10) with --chinese-rules
(area scoring, so that its count can be compared with Tromp-Taylor's) and
--capture-all-dead, so that it plays on until dead stones are captured, as
the Tromp-Taylor count needs; --opponent replaces that command whole. hane
gets --no-suicide against every opponent but another hane (GNU Go and Pachi
forbid every suicide; --hane-suicide keeps hane's own rules), and against
another hane that has it, and
--hane-args on top.

Example:
  scripts/match.py --games 100 --size 9 --komi 7.5 --hane-args "--threads 1 --time 1"
  scripts/match.py --games 20 --gnugo-level 1 --print-commands   # what would run
"""

import argparse
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time

from gtp_client import Engine, EngineError

GNUGO_FLAGS = "--mode gtp --chinese-rules --capture-all-dead"


def gnugo_command(path, level):
    """GNU Go's whole command for a match: GTP, area scoring (its
    final_score then counts as Tromp-Taylor does, but for dead stones) and
    every dead stone captured before it passes."""
    return f"{path} {GNUGO_FLAGS} --level {level}"


def default_gnugo():
    return shutil.which("gnugo") or "/usr/games/gnugo"


def program_name(command):
    try:
        return os.path.basename(shlex.split(command)[0])
    except (ValueError, IndexError):
        return ""


def is_gnugo(command):
    return program_name(command) == "gnugo"


def is_hane(command):
    """Another hane (a head-to-head match): it plays by the same rules."""
    return program_name(command).startswith("hane")


def opponent_label(args):
    """The opponent as the plot's title and the summary name it: `GNU Go
    level 10`, or the command's program and its arguments."""
    if args.opponent is None:
        return f"GNU Go level {args.gnugo_level}"
    words = shlex.split(args.opponent)
    if not words:
        return "?"
    label = " ".join([os.path.basename(words[0])] + words[1:])
    if is_gnugo(args.opponent):
        level = re.search(r"--level[ =](\d+)", args.opponent)
        label = f"GNU Go level {level.group(1) if level else 10 }"
    return label


def engine_commands(args):
    """(hane's command, the opponent's command) as the match runs them."""
    opponent = args.opponent or gnugo_command(args.gnugo, args.gnugo_level)
    hane_args = args.hane_args.split()
    # GNU Go and Pachi both forbid every suicide: a multi-stone suicide
    # of hane's (legal by Tromp-Taylor) would end the game as an illegal
    # move. Against another hane both play by the same rules: the
    # opponent's, so a hane told --no-suicide has one that is told it too
    # (a two-stone suicide of the candidate's once ended such a game as a
    # forfeit).
    forbids_suicide = not is_hane(opponent) or "--no-suicide" in shlex.split(opponent)
    if forbids_suicide and not args.hane_suicide and "--no-suicide" not in hane_args:
        hane_args = ["--no-suicide"] + hane_args
    hane = " ".join([shlex.quote(args.hane)] + hane_args)
    return hane, opponent


def wilson(wins, n, z=1.96):
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def score_winner(score):
    """'B+3.5' -> 'B', 'W+7' -> 'W', '0' -> None."""
    score = score.strip()
    return score[0].upper() if score[:1].upper() in ("B", "W") else None


SGF_LETTERS = "abcdefghijklmnopqrstuvwxyz"
GTP_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def sgf_point(vertex, size):
    if vertex.lower() == "pass":
        return ""
    col = GTP_LETTERS.index(vertex[0].upper())
    row = int(vertex[1:])
    return SGF_LETTERS[col] + SGF_LETTERS[size - row]


def write_sgf(path, size, komi, black, white, moves, result, handicap=()):
    nodes = "".join(f";{c}[{sgf_point(v, size)}]" for c, v in moves)
    re_prop = f"RE[{result}]" if result else ""
    setup = (f"HA[{len(handicap)}]AB" + "".join(f"[{sgf_point(v, size)}]" for v in handicap)
             if handicap else "")
    with open(path, "w") as f:
        f.write(f"(;FF[4]GM[1]SZ[{size}]KM[{komi}]RU[Tromp-Taylor]PB[{black}]PW[{white}]"
                f"{setup}{re_prop}{nodes})\n")


class Suspended(Exception):
    """A game stopped at --stop-after, its moves saved to resume."""


def partial_path(args, game_index):
    return os.path.join(args.out, f"game-{game_index:04d}.partial.json")


def saved_game(args, game_index):
    """The saved state of game `game_index` in flight, or None."""
    try:
        with open(partial_path(args, game_index)) as f:
            state = json.load(f)
    except (OSError, ValueError):
        return None
    return state if isinstance(state, dict) and "moves" in state else None


def save_game(args, game_index, state):
    """Writes a game in flight (atomically: a kill mid-write leaves the last
    whole state) and its record so far."""
    path = partial_path(args, game_index)
    with open(path + ".tmp", "w") as f:
        json.dump(state, f)
    os.replace(path + ".tmp", path)


def forget_game(args, game_index):
    """Removes a game's saved state: it has a result now."""
    try:
        os.remove(partial_path(args, game_index))
    except FileNotFoundError:
        pass


def play_game(engines, hane_colour, args, game_index, stop_at=None):
    """One game, or the rest of one saved in flight; returns a dict of what
    happened. Raises Suspended when `stop_at` (time.monotonic()) comes
    before the game ends."""
    size = args.size
    for e in engines.values():
        e.send(f"boardsize {size}")
        e.send("clear_board")
        e.send(f"komi {args.komi}")
        if args.clock:
            e.send(f"time_settings {args.clock} 0 0")
    handicap = []
    if args.handicap:
        # Both engines place the same stones (fixed_handicap's list is the
        # spec's), and White moves first.
        stones = engines["hane"].send(f"fixed_handicap {args.handicap}")
        engines["opponent"].send(f"set_free_handicap {stones}")
        handicap = stones.split()
    colour_of = {"B": engines["hane"] if hane_colour == "B" else engines["opponent"],
                 "W": engines["opponent"] if hane_colour == "B" else engines["hane"]}
    moves, passes, to_move = [], 0, "W" if args.handicap else "B"
    think = {"hane": 0.0, "opponent": 0.0}
    count = {"hane": 0, "opponent": 0}
    clock_left = {"hane": args.clock, "opponent": args.clock}
    saved = saved_game(args, game_index)
    if saved and saved.get("hane") == hane_colour:
        # Fresh engines: the moves so far replayed to both, the clocks as
        # they stood when the last move was answered.
        for colour, vertex in saved["moves"]:
            for e in engines.values():
                e.send(f"play {colour} {vertex}")
            moves.append((colour, vertex))
            passes = passes + 1 if vertex.lower() == "pass" else 0
            to_move = "W" if colour == "B" else "B"
        think.update(saved["think"])
        count.update(saved["count"])
        clock_left.update(saved["clock_left"])
    record = {"error": "", "resigned": None}
    while passes < 2 and len(moves) < 3 * size * size:
        if stop_at is not None and time.monotonic() >= stop_at:
            raise Suspended(f"game {game_index} saved after {len(moves)} moves")
        mover = colour_of[to_move]
        other = colour_of["W" if to_move == "B" else "B"]
        who = "hane" if mover is engines["hane"] else "opponent"
        if args.clock:
            # Sudden death, each side's clock kept here and reported before
            # every move, as gogui-twogtp -time does.
            mover.send(f"time_left {to_move} {max(int(clock_left[who]), 0)} 0")
        start = time.monotonic()
        try:
            vertex = mover.send(f"genmove {to_move}", timeout=args.move_timeout)
        except EngineError as e:
            record["error"] = f"{e.kind}: {e}"
            record["loser"] = to_move
            break
        used = time.monotonic() - start
        think[who] += used
        count[who] += 1
        if args.clock:
            clock_left[who] -= used
            if clock_left[who] < 0:
                record["error"] = f"time: {who} overran its {args.clock} s"
                record["loser"] = to_move
                break
        if vertex.lower() == "resign":
            record["resigned"] = to_move
            break
        moves.append((to_move, vertex))
        passes = passes + 1 if vertex.lower() == "pass" else 0
        try:
            other.send(f"play {to_move} {vertex}")
        except EngineError as e:
            record["error"] = f"illegal: {e}"
            record["loser"] = to_move
            break
        to_move = "W" if to_move == "B" else "B"
        save_game(args, game_index, {"hane": hane_colour, "moves": moves, "think": think,
                                     "count": count, "clock_left": clock_left})
    # The counts of a game that ended on the board: none after a resignation
    # or an error (gogui-twogtp records none either).
    counted = not record["error"] and not record["resigned"]
    tt = engines["hane"].send("final_score") if counted else ""
    gnu = ""
    if counted:
        # The opponent's own count is for comparison only: an engine that
        # declines to count (Pachi: "unclear groups") costs nothing.
        try:
            gnu = engines["opponent"].send("final_score")
        except EngineError as e:
            if e.kind != "error":
                raise
    if record["resigned"]:
        result = ("W" if record["resigned"] == "B" else "B") + "+R"
    elif record["error"]:
        result = ("W" if record["loser"] == "B" else "B") + "+F"
    else:
        result = tt
    winner = score_winner(result)
    black = "hane" if hane_colour == "B" else "opponent"
    white = "opponent" if hane_colour == "B" else "hane"
    write_sgf(os.path.join(args.out, f"game-{game_index:04d}.sgf"), size, args.komi,
              black, white, moves, result, handicap)
    forget_game(args, game_index)
    return {
        "game": game_index, "hane": hane_colour, "result": result,
        "hane_won": winner == hane_colour, "tie": winner is None,
        "tt_score": tt, "opponent_score": gnu,
        "scores_agree": (score_winner(tt) == score_winner(gnu)) if tt and gnu else None,
        "moves": len(moves), "ended_by_passes": passes >= 2,
        "hane_passed_first": passes >= 2 and moves[-2][0] == hane_colour,
        "hane_secs_per_move": think["hane"] / max(count["hane"], 1),
        "opp_secs_per_move": think["opponent"] / max(count["opponent"], 1),
        "error": record["error"],
        "error_by": ("hane" if record.get("loser") == hane_colour else "opponent") if record["error"] else "",
    }


def failed_game(i, hane_colour, e):
    return {"game": i, "hane": hane_colour, "result": "?", "hane_won": False, "tie": False,
            "tt_score": "", "opponent_score": "", "scores_agree": None, "moves": 0,
            "ended_by_passes": False, "hane_passed_first": False, "hane_secs_per_move": 0,
            "opp_secs_per_move": 0, "error": f"{e.kind}: {e}", "error_by": "?"}


def progress_line(r, results):
    """The line printed when game `r` ends: its result and the running score
    over `results` (the games finished so far, `r` among them) with its 95%
    interval. Both routes print it."""
    n = len(results)
    wins = sum(x["hane_won"] for x in results) + 0.5 * sum(x["tie"] for x in results)
    low, high = wilson(wins, n)
    return (f"game {r['game']}: hane {r['hane']} {r['result']} moves {r['moves']} "
            f"(opponent says {r['opponent_score'] or '-'}) {r['error']} "
            f"| {wins:g}/{n} = {wins / n:.3f} [{low:.3f}, {high:.3f}]")


def sprt_llr(wins, losses, p0, p1):
    """Log-likelihood ratio of win rate p1 against p0 after these games
    (Wald's sequential test on a Bernoulli win/loss)."""
    return wins * math.log(p1 / p0) + losses * math.log((1 - p1) / (1 - p0))


def run_own_driver(args):
    """Plays the games on --parallel workers, each with its own pair of
    engines; prints one line per finished game with the running score, and
    stops early when --sprt decides. The games already in results.tsv are
    kept; the games saved in flight are played on first."""
    os.makedirs(args.out, exist_ok=True)
    results = results_from_table(args)  # all kept, those past --games too
    done = {r["game"] for r in results}
    in_flight = [i for i in range(args.games) if i not in done and saved_game(args, i)]
    todo = in_flight + [i for i in range(args.games) if i not in done and i not in in_flight]
    if args.sprt:
        p0, p1 = (float(x) for x in args.sprt.split(","))
        bound = math.log((1 - 0.05) / 0.05)
        wins = sum(x["hane_won"] for x in results) + 0.5 * sum(x["tie"] for x in results)
        if abs(sprt_llr(wins, len(results) - wins, p0, p1)) >= bound:
            todo = []  # decided in an earlier run
    if not todo:
        print(f"{len(results)} games already in {args.out}: the match is over; "
              "redrawing its table, summary and plot", flush=True)
        write_table(args, results)
        return results
    if results or in_flight:
        print(f"resuming: {len(results)} games kept, {len(in_flight)} in flight "
              f"({', '.join(map(str, in_flight)) or 'none'})", flush=True)
    stop_at = time.monotonic() + args.stop_after if args.stop_after is not None else None
    lock = threading.Lock()
    stop = threading.Event()

    def worker(slot):
        engines = None
        while not stop.is_set():
            with lock:
                if not todo or (stop_at is not None and time.monotonic() >= stop_at):
                    break
                i = todo.pop(0)
            if engines is None:
                hane_command, opponent_command = engine_commands(args)
                engines = {
                    "hane": Engine(hane_command, "hane",
                                   os.path.join(args.out, f"hane-{slot}.stderr")),
                    "opponent": Engine(opponent_command, "opponent",
                                       os.path.join(args.out, f"opponent-{slot}.stderr")),
                }
            hane_colour = "B" if i % 2 == 0 or args.handicap else "W"
            try:
                r = play_game(engines, hane_colour, args, i, stop_at)
            except Suspended as e:
                print(f"{e}: the same command plays it on", flush=True)
                stop.set()
                break
            except EngineError as e:
                r = failed_game(i, hane_colour, e)
                forget_game(args, i)
            if r["error"]:
                for e in engines.values():
                    e.close()
                engines = None
            with lock:
                results.append(r)
                n = len(results)
                wins = sum(x["hane_won"] for x in results) + 0.5 * sum(x["tie"] for x in results)
                line = progress_line(r, results)
                if args.sprt:
                    llr = sprt_llr(wins, n - wins, p0, p1)
                    line += f" llr {llr:+.2f}"
                    if abs(llr) >= bound:
                        line += " (sprt: " + ("above" if llr > 0 else "below") + f" {p1 if llr > 0 else p0})"
                        stop.set()
                print(line, flush=True)
                results.sort(key=lambda x: x["game"])
                write_table(args, results)
        if engines:
            for e in engines.values():
                e.close()

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(args.parallel)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sorted(results, key=lambda x: x["game"])


def flip(result):
    """A result with the colours swapped: 'B+3.5' -> 'W+3.5'."""
    result = result.strip()
    if result[:1].upper() == "B":
        return "W" + result[1:]
    if result[:1].upper() == "W":
        return "B" + result[1:]
    return result


def hane_view(r):
    """The game from hane's side: (outcome, margin). `outcome` is won, lost,
    tie or error; `margin` hane's lead in points, 'resign' or ''."""
    if r["error"] and r["result"] in ("?", ""):
        return "error", ""
    result = r["result"].strip()
    if r["tie"]:
        return "tie", "0"
    outcome = "won" if r["hane_won"] else "lost"
    text = result[2:] if len(result) > 2 else ""
    if text.upper() in ("R", "RESIGN"):
        return outcome, "resign"
    if text.upper() in ("F", "T"):
        return outcome, "forfeit"
    try:
        points = float(text)
    except ValueError:
        return outcome, ""
    return outcome, f"{points if r['hane_won'] else -points:+g}"


def write_table(args, results):
    """results.tsv: one row a game, from hane's side whichever route played
    it. `result` and the scores are in real colours (B is Black)."""
    keys = ["game", "hane_colour", "hane_outcome", "hane_margin", "result", "tt_score",
            "opponent_score", "scores_agree", "moves", "ended_by_passes", "hane_passed_first",
            "hane_secs_per_move", "opp_secs_per_move", "error", "error_by"]
    with open(os.path.join(args.out, "results.tsv"), "w") as f:
        f.write("\t".join(keys) + "\n")
        for r in results:
            outcome, margin = hane_view(r)
            row = dict(r, hane_colour=r["hane"], hane_outcome=outcome, hane_margin=margin)
            f.write("\t".join(str(row.get(k, "")) for k in keys) + "\n")


def results_from_table(args):
    """The games of an earlier run of the own driver, read back from its
    results.tsv (none where there is none, or where gogui-twogtp played)."""
    if os.path.exists(os.path.join(args.out, "game.dat")):
        return []
    try:
        f = open(os.path.join(args.out, "results.tsv"))
    except FileNotFoundError:
        return []
    results = []
    with f:
        keys = f.readline().rstrip("\n").split("\t")
        for line in f:
            row = dict(zip(keys, line.rstrip("\n").split("\t")))
            try:
                game = int(row["game"])
                r = {
                    "game": game, "hane": row["hane_colour"], "result": row["result"],
                    "hane_won": row["hane_outcome"] == "won", "tie": row["hane_outcome"] == "tie",
                    "tt_score": row["tt_score"], "opponent_score": row["opponent_score"],
                    "scores_agree": {"True": True, "False": False}.get(row["scores_agree"]),
                    "moves": int(row["moves"]), "ended_by_passes": row["ended_by_passes"] == "True",
                    "hane_passed_first": row["hane_passed_first"] == "True",
                    "hane_secs_per_move": float(row["hane_secs_per_move"]),
                    "opp_secs_per_move": float(row["opp_secs_per_move"]),
                    "error": row.get("error", ""),
                    "error_by": row.get("error_by", "?" if row.get("error") else ""),
                }
            except (KeyError, ValueError):
                continue
            if all(x["game"] != game for x in results):
                results.append(r)
    return results


def sgf_name(args, game):
    """Where a game's SGF is: the driver's name, or gogui-twogtp's."""
    if os.path.exists(os.path.join(args.out, "game.dat")):
        return os.path.join(args.out, f"game-{game}.sgf")
    return os.path.join(args.out, f"game-{game:04d}.sgf")


def summarise(args, results):
    n = len(results)
    wins = sum(r["hane_won"] for r in results) + 0.5 * sum(r["tie"] for r in results)
    low, high = wilson(wins, n)
    errors = [r for r in results if r["error"]]
    both = [r for r in results if r["scores_agree"] is not None and r["ended_by_passes"]]
    agree = sum(r["scores_agree"] for r in both)
    secs = [r["hane_secs_per_move"] for r in results if r["moves"]]
    opp = [r["opp_secs_per_move"] for r in results if r["moves"]]
    # Who passed first matters: after an opponent's pass hane ends the game
    # as soon as the count as it stands wins, scored out or not.
    hane_first = [r for r in both if r.get("hane_passed_first")]
    agree_first = sum(r["scores_agree"] for r in hane_first)
    lines = [
        f"games {n}  hane wins {wins:g}  losses {n - wins:g}",
        f"win rate {wins / max(n, 1):.3f}  95% interval [{low:.3f}, {high:.3f}]",
        f"hane seconds/move {sum(secs) / max(len(secs), 1):.3f}  opponent {sum(opp) / max(len(opp), 1):.3f}",
        f"errors (illegal/timeout/crash) {len(errors)}: by hane "
        f"{sum(r.get('error_by') == 'hane' for r in errors)}, "
        f"by the opponent {sum(r.get('error_by') == 'opponent' for r in errors)}",
        f"two-pass endings where Tromp-Taylor and opponent's count agree on the winner: {agree}/{len(both)}",
        f"  of them where hane passed first: {agree_first}/{len(hane_first)}",
    ]
    for r in errors:
        lines.append(f"  game {r['game']} (by {r.get('error_by') or '?'}): {r['error']} ")
    for r in both:
        if not r["scores_agree"]:
            lines.append(f"  counts disagree in game {r['game']} ({sgf_name(args, r['game'])}): "
                         f"Tromp-Taylor {r['tt_score']}, opponent {r['opponent_score']}")
    text = "\n".join(lines)
    with open(os.path.join(args.out, "summary.txt"), "w") as f:
        f.write(text + "\n")
    print(text)


def results_from_twogtp(args):
    """Reads gogui-twogtp's table (<out>/game.dat) into the driver's records,
    the games finished so far (twogtp rewrites the file whole after each
    game, through a temporary file, so it is never read half written).

    With -alternate, twogtp flips the results of the swapped games so that
    B always means the -black program, which is hane: B+ is a hane win.
    RES_B is hane's own final_score (the Tromp-Taylor count), RES_W the
    opponent's; TIME_B and CPU_B are hane's. After an error twogtp writes
    the counts of the unfinished game; the driver's form is kept instead:
    the side at fault loses (X+F) and nothing is counted."""
    path = os.path.join(args.out, "game.dat")
    results = []
    hane_label = "hane"
    try:
        f = open(path)
    except FileNotFoundError:
        return results
    with f:
        for line in f:
            if line.startswith("# BlackLabel:"):
                hane_label = line.split(":", 1)[1].strip() or hane_label
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            if len(cols) < 12:
                continue
            game, res_b, res_w, _res_r, alt, _dup, length = cols[:7]
            time_b = float(cols[7] or 0)
            time_w = float(cols[8] or 0)
            err = cols[11]
            err_msg = cols[12] if len(cols) > 12 else ""
            moves = int(length or 0)
            hane = "W" if alt == "1" else "B"
            opp = "B" if hane == "W" else "W"
            sgf = os.path.join(args.out, f"game-{game}.sgf")
            # Back to real colours: twogtp wrote B for hane in every game.
            real = flip if hane == "W" else (lambda text: text)
            error, error_by = "", ""
            resigned = None
            if err == "1":
                error = err_msg or "error"
                error_by = twogtp_culprit(err_msg, hane_label, sgf, hane)
                loser = hane if error_by == "hane" else opp
                result = ("W" if loser == "B" else "B") + "+F"
                winner = "W" if loser == "B" else "B"
                tt, gnu = "", ""
            elif res_b.strip().upper().endswith("+R"):
                # twogtp's B is hane: "W+R" means hane resigned.
                resigned = hane if res_b.strip().upper().startswith("W") else opp
                result = real(res_b)
                winner = score_winner(result)
                tt, gnu = "", ""
            else:
                result = real(res_b)
                winner = score_winner(result)
                tt, gnu = real(res_b), real(res_w)
            ended_by_passes = not error and resigned is None
            # genmove calls: the moves of each colour (Black moves first, no
            # handicap), and the one answered `resign`.
            count = {"B": (moves + 1) // 2, "W": moves // 2}
            if resigned:
                count[resigned] += 1
            allowed = clock_allows(args.twogtp_time, count[hane])
            if not error and allowed is not None and time_b > allowed:
                # twogtp ends no game on time: the driver does, from
                # hane's real time against what the clock gave it.
                error, error_by = f"hane used {time_b:.1f} s of {allowed:.1f} s", "hane"
                result = ("W" if hane == "B" else "B") + "+T"
                winner = opp
                ended_by_passes = False
            results.append({
                "game": int(game), "hane": hane, "result": result,
                "hane_won": winner == hane, "tie": not error and result.strip() == "0",
                "tt_score": tt, "opponent_score": gnu,
                "scores_agree": (score_winner(tt) == score_winner(gnu)) if tt and gnu else None,
                "moves": moves, "ended_by_passes": ended_by_passes,
                "hane_passed_first": ended_by_passes and first_passer(sgf) == hane,
                "hane_secs_per_move": time_b / max(count[hane], 1),
                "opp_secs_per_move": time_w / max(count[opp], 1),
                "error": error, "error_by": error_by,
            })
    return results


def clock_allows(spec, moves):
    """The most seconds a gogui-twogtp clock `spec` (TIME, or
    TIME+TIME/MOVES: main time, then a period for every so many moves;
    TIME as `clock_seconds` reads it) can give a side for `moves` moves; None without a clock. For
    byo-yomi this is the bound of all periods used in full, so a game over
    it certainly overran, though one under it may still have overrun one
    period (the engine's own clock tests pin those)."""
    if not spec:
        return None
    main, _, period = spec.partition("+")
    allowed = clock_seconds(main)
    if period:
        length, _, stones = period.partition("/")
        allowed += math.ceil(moves / max(int(stones or 1), 1)) * clock_seconds(length)
    return allowed


def clock_seconds(text):
    """Seconds of one of gogui-twogtp's times: whole minutes, or a number
    ending in m / min (minutes) or s / sec (seconds)."""
    text = text.strip()
    for suffix, factor in (("min", 60), ("sec", 1), ("m", 60), ("s", 1)):
        if text.endswith(suffix):
            return float(text[:-len(suffix)] or 0) * factor
    return float(text or 0) * 60


def twogtp_culprit(message, hane_label, sgf_path, hane):
    """Who caused a game's error, from twogtp's message: "LABEL played
    invalid move: ..." and "LABEL: ..." after genmove name the mover;
    "LABEL: illegal move" (or any message) after `play` names the engine
    that refused the other's move, which is the last move of the record."""
    labelled_hane = message.startswith(hane_label)
    if "illegal move" in message and "played invalid" not in message:
        last = last_mover(sgf_path)
        if last:
            return "hane" if last == hane else "opponent"
        return "opponent" if labelled_hane else "hane"
    return "hane" if labelled_hane else "opponent"


def last_mover(sgf_path):
    try:
        with open(sgf_path) as f:
            moves = re.findall(r";\s*([BW])\[", f.read())
    except OSError:
        return None
    return moves[-1] if moves else None


def run_twogtp(args):
    """Plays the match under gogui-twogtp and prints one line per game as
    its row appears in game.dat, with results.tsv rewritten each time, as
    the driver does."""
    hane_command, opponent_command = engine_commands(args)
    # A finished match: twogtp would refuse it (game.dat already contains
    # N games) and leave its lock behind; its games are redrawn instead.
    finished = sorted(results_from_twogtp(args), key=lambda x: x["game"])
    if len(finished) >= args.games:
        print(f"{len(finished)} games already in {args.out}: the match is over; "
              "redrawing its table, summary and plot", flush=True)
        write_table(args, finished)
        return finished
    cmd = ["gogui-twogtp", "-black", hane_command, "-white", opponent_command,
           "-size", str(args.size), "-komi", f"{args.komi:g}", "-alternate", "-auto",
           "-games", str(args.games), "-sgffile", os.path.join(args.out, "game")]
    if args.twogtp_time:
        cmd += ["-time", args.twogtp_time]
    print("running", " ".join(shlex.quote(c) for c in cmd), flush=True)
    proc = subprocess.Popen(cmd)
    seen = len(results_from_twogtp(args))  # a resumed match's earlier games
    try:
        while True:
            done = proc.poll() is not None
            results = sorted(results_from_twogtp(args), key=lambda x: x["game"])
            for k in range(seen, len(results)):
                print(progress_line(results[k], results[:k + 1]), flush=True)
            if len(results) > seen:
                write_table(args, results)
                seen = len(results)
            if done:
                break
            time.sleep(0.5)
    except KeyboardInterrupt:
        proc.terminate()
        proc.wait()
        raise
    finally:
        # twogtp has ended: a lock it left (after an error) would stop the
        # next run of the same match.
        if proc.poll() is not None:
            try:
                os.remove(os.path.join(args.out, "game.lock"))
            except FileNotFoundError:
                pass
    if proc.returncode != 0:
        sys.exit(proc.returncode)
    write_table(args, results)
    return results


def first_passer(sgf_path):
    """The colour of the first of the two passes that end a game record, or
    None when it does not end so (or cannot be read)."""
    try:
        with open(sgf_path) as f:
            text = f.read()
    except OSError:
        return None
    moves = re.findall(r";\s*([BW])\[([a-z]{0,2})\]", text)
    if len(moves) < 2:
        return None
    (c1, v1), (_, v2) = moves[-2], moves[-1]
    is_pass = lambda v: v in ("", "tt")
    return c1 if is_pass(v1) and is_pass(v2) else None


def plot_win_rate(path, results, args):
    """Two panels: hane's win rate after each game with its 95% Wilson band
    and the 50% line; below, hane's and the opponent's seconds per move in
    each game. Needs matplotlib (pip install matplotlib)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import MaxNLocator
    except ImportError:
        print("winrate.png needs matplotlib: pip install -r scripts/requirements.txt",
              file=sys.stderr)
        return False
    games, rates, lows, highs = [], [], [], []
    wins = 0.0
    for i, r in enumerate(results):
        wins += 1.0 if r["hane_won"] else 0.5 if r["tie"] else 0.0
        low, high = wilson(wins, i + 1)
        games.append(i + 1)
        rates.append(100 * wins / (i + 1))
        lows.append(100 * low)
        highs.append(100 * high)
    fig, (top, bottom) = plt.subplots(
        2, 1, figsize=(8, 6.5), sharex=True, gridspec_kw={"height_ratios": [3, 1.4]})
    top.fill_between(games, lows, highs, color="#b8cde8", label="95% interval")
    top.plot(games, rates, color="#1f3d99", linewidth=2, label="hane's win rate")
    top.axhline(50, color="grey", linewidth=1, linestyle="--", label="50%")
    top.set_ylim(0, 100)
    top.set_ylabel("hane wins (%)")
    top.grid(alpha=0.3)
    top.legend(loc="lower right")
    opponent = opponent_label(args)
    hane_args = " ".join(engine_commands(args)[0].split()[1:])
    top.set_title(f"hane ({hane_args or 'defaults'}) against {opponent}\n"
                  f"{args.size}x{args.size}, komi {args.komi:g}, "
                  f"{f'hane Black with {args.handicap} stones' if args.handicap else 'colours alternating'}: "
                  f"{wins:g} of {len(results)} won", fontsize=10)
    bottom.plot(games, [r["hane_secs_per_move"] for r in results], "o-", markersize=3,
                color="#1f3d99", label="hane")
    bottom.plot(games, [r["opp_secs_per_move"] for r in results], "s-", markersize=3,
                color="#c0504d", label=opponent)
    bottom.xaxis.set_major_locator(MaxNLocator(integer=True))
    bottom.set_xlabel("games played")
    bottom.set_ylabel("seconds a move")
    bottom.set_ylim(bottom=0)
    bottom.grid(alpha=0.3)
    bottom.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hane", metavar="PATH",
                   default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "hane"),
                   help="the hane binary (default: target/release/hane)")
    p.add_argument("--hane-args", default="", metavar="ARGS",
                   help="hane's options, one string: \"--threads 1 --time 1\" "
                        "(--no-suicide is added unless the opponent is a hane without it)")
    p.add_argument("--hane-suicide", action="store_true",
                   help="do not add --no-suicide (GNU Go's and Pachi's play answer "
                        "hane's suicides with an error, which ends the game)")
    p.add_argument("--gnugo", default=default_gnugo(), metavar="PATH",
                   help="GNU Go's binary (default: gnugo on PATH, else /usr/games/gnugo)")
    p.add_argument("--gnugo-level", type=int, default=10, metavar="N",
                   help=f"GNU Go's level, 1 to 10 (default 10); its command is then "
                        f"`GNUGO {GNUGO_FLAGS} --level N`")
    p.add_argument("--opponent", default=None, metavar="COMMAND",
                   help="another opponent's whole GTP command, instead of GNU Go "
                        "(given GNU Go this way, keep --chinese-rules or the counts disagree)")
    p.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    p.add_argument("--size", type=int, default=9, help="board size (default 9)")
    p.add_argument("--komi", type=float, default=7.5, help="komi (default 7.5)")
    p.add_argument("--out", default="out/match", metavar="DIR",
                   help="folder for the SGFs, results.tsv, summary.txt and winrate.png "
                        "(default out/match; gogui-twogtp resumes a match found there)")
    p.add_argument("--move-timeout", type=float, default=60.0, metavar="SECONDS",
                   help="own driver: a genmove unanswered this long loses the game (default 60)")
    p.add_argument("--no-twogtp", action="store_true",
                   help="play with the script's own driver even when gogui-twogtp is on PATH")
    p.add_argument("--print-commands", action="store_true",
                   help="print hane's and the opponent's commands and the plot's title, then exit")
    p.add_argument("--clock", type=int, default=0, metavar="SECONDS",
                   help="sudden death: each side has SECONDS for the game (always the own driver, "
                        "as gogui-twogtp keeps no clock; "
                        "time_settings and time_left sent to both, overrunning loses)")
    p.add_argument("--twogtp-time", metavar="SPEC",
                   help="play under gogui-twogtp -time SPEC (TIME or TIME+TIME/MOVES for byo-yomi, "
                        "TIME in whole minutes or with a unit: 12s, 2min): twogtp sends time_settings only and hane keeps its own "
                        "clock; a game where hane's real time is over what the clock can give "
                        "is scored as lost on time")
    p.add_argument("--parallel", type=int, default=1,
                   help="games played at once by the own driver (each with its own engines)")
    p.add_argument("--handicap", type=int, default=0, metavar="N",
                   help="hane takes Black in every game with N fixed handicap stones "
                        "(the own driver; set --komi too, 0.5 say)")
    p.add_argument("--stop-after", type=float, metavar="SECONDS",
                   help="own driver: start no move after SECONDS; the games in flight are saved, "
                        "and the same command plays them on (the finished ones are kept)")
    p.add_argument("--sprt", metavar="P0,P1",
                   help="stop early once Wald's test (alpha = beta = 0.05) tells win rate P1 from P0")
    args = p.parse_args()
    if args.opponent is not None and is_gnugo(args.opponent) and "--chinese-rules" not in args.opponent:
        print("warning: GNU Go without --chinese-rules counts by territory: its final_score "
              "will disagree with the Tromp-Taylor count (use --gnugo-level instead)",
              file=sys.stderr)
    if args.print_commands:
        hane_command, opponent_command = engine_commands(args)
        print(f"hane: {hane_command}")
        print(f"opponent: {opponent_command}")
        print(f"title: hane against {opponent_label(args)}")
        return
    os.makedirs(args.out, exist_ok=True)
    # gogui-twogtp -time sends time_settings once and neither sends
    # time_left nor ends a game on time, so a clock is kept by the driver.
    if args.twogtp_time and (args.parallel != 1 or args.sprt or args.clock
                             or not shutil.which("gogui-twogtp")):
        p.error("--twogtp-time needs gogui-twogtp on PATH and no --parallel, --sprt or --clock")
    if args.twogtp_time and args.handicap:
        p.error("--handicap is played by the own driver only (no --twogtp-time)")
    if (not args.no_twogtp and args.parallel == 1 and not args.sprt and not args.clock
            and not args.handicap and shutil.which("gogui-twogtp")):
        results = run_twogtp(args)
    else:
        results = run_own_driver(args)
    summarise(args, results)
    if plot_win_rate(os.path.join(args.out, "winrate.png"), results, args):
        print(f"plot: {os.path.join(args.out, 'winrate.png')}")


if __name__ == "__main__":
    main()
