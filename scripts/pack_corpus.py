#!/usr/bin/env python3
"""Packs the game corpus (Tom and TYGEM of yenw/computer-go-dataset) into
numbered slices of the compact game format that examples/write_planes
reads, and a manifest (docs/network.md, "The corpus in slices").

    scripts/pack_corpus.py --mirror GIT_DIR --out gpu-kit/corpus [--slice-games 200000]
                           [--only N]

GIT_DIR is a (bare) git repository of yenw/computer-go-dataset; it is read
file by file (`git ls-tree`, `git cat-file -e` to skip a missing blob,
`git cat-file blob`), so a snapshot that lacks some files still packs.
Standard library only.

**No game of 2011 is ever written**: all of 2011 (Tom's and TYGEM's) is
kept out of training for evaluation. A game is of 2011 if the file it is
read from is a month of 2011 or its index line dates it 2011; `excluded`
is the one place that decides, and `write_game` refuses such a game again.

The games, in this order: Tom's files in name order, then TYGEM's months.
A game whose moves repeat an earlier one's is left out. Of the distinct
games, counted in that order from 0 (the 2011 ones counted, not written, so
that Tom's count is write_planes' count over the Tom files), every 50th
(0, 50, ...) is held out: the rule write_planes applies to the Tom lines
(`--held-out-every 50`), so that Tom's held-out games stay the ones the
project measured on (50,882 distinct Tom games, as write_planes counts
them: a record whose colours do not alternate is counted, not written),
and TYGEM's every 50th joins them. A held-out game is
written in its slice with its flag set: write_planes puts it in the held
split, never in the training one.

The format (one slice, before xz; all integers little-endian):

    magic  b"HANEGAMES1\\n" (11 bytes)
    per game:
      flags   u8   bit 0: held out; bits 1-2: source (0 Tom, 1 TYGEM)
      id      u32  the game's ID in its source's index
      komi    i8   in half points (13: 6.5), -128 unknown
      winner  u8   0 unknown, 1 Black, 2 White, 3 draw
      how     u8   0 by points, 1 resignation, 2 time, 3 other (offline,
                   forfeit), 255 unknown
      margin  u16  in half points where `how` is 0, else 0
      moves   u16  the count, then per move two bytes: column and row as
                   SGF letters count them (0 = 'a', row 0 the top), 19 19 a
                   pass; Black moves first and the colours alternate
The stream is then xz'd (-9e): about 190 bytes a game.
"""

import argparse
import hashlib
import io
import json
import lzma
import os
import re
import struct
import subprocess
import sys
import zipfile

MAGIC = b"HANEGAMES1\n"
HELD_OUT_EVERY = 50
EXCLUDED_YEAR = "2011"
TOM, TYGEM = 0, 1
TYGEM_KOMI = 6.5
WINNER = {"B": 1, "W": 2}
HOW_POINTS, HOW_RESIGN, HOW_TIME, HOW_OTHER, HOW_UNKNOWN = 0, 1, 2, 3, 255
PASS = 19
KOMI_UNKNOWN = -128
HEADER = struct.Struct("<BIbBBHH")

MOVE = re.compile(rb";([BW])\[([a-t]{2})?\]")


def excluded(month, date=None):
    """Whether a game of file month `month` (YYYY-MM) dated `date` (the
    index's date, any text starting with its year, or None) is kept out:
    all of 2011."""
    if month.startswith(EXCLUDED_YEAR):
        return True
    if date is not None:
        year = re.search(r"(\d{4})", date)
        if year and year.group(1) == EXCLUDED_YEAR:
            return True
    return False


def parse_result(text):
    """(winner, how, margin in half points) of an index's result."""
    text = (text or "").strip()
    m = re.match(r"^([BW])\+(.*)$", text)
    if not m:
        if text.lower() in ("draw", "0", "jigo"):
            return 3, HOW_POINTS, 0
        return 0, HOW_UNKNOWN, 0
    winner, rest = WINNER[m.group(1)], m.group(2).strip().lower()
    try:
        margin = round(float(rest) * 2)
        if 0 <= margin < 65536:
            return winner, HOW_POINTS, margin
    except ValueError:
        pass
    if rest.startswith("r"):
        return winner, HOW_RESIGN, 0
    if rest.startswith("t"):
        return winner, HOW_TIME, 0
    return winner, HOW_OTHER, 0


def parse_line_moves(text):
    """The moves of a line's record (after the tab) as (colour, column,
    row), column and row 19 for a pass (`[]`, or `[tt]` as SGF allows on
    19x19); None where the line is not a game: no moves, or anything but
    moves."""
    text = text.rstrip(b"\r\n")
    moves = []
    pos = 0
    for m in MOVE.finditer(text):
        if m.start() != pos:
            return None
        point = m.group(2)
        if point is None or point == b"tt":
            moves.append((m.group(1), PASS, PASS))
        elif b"t" in point:
            return None
        else:
            moves.append((m.group(1), point[0] - 97, point[1] - 97))
        pos = m.end()
    if pos != len(text) or not moves or len(moves) >= 65536:
        return None
    return moves


def alternate(moves):
    """Whether the colours alternate from Black: the format stores no
    colour."""
    return all(c == (b"B" if i % 2 == 0 else b"W") for i, (c, _, _) in enumerate(moves))


def parse_moves(text):
    """The (column, row) pairs of a line whose colours alternate from
    Black, or None."""
    moves = parse_line_moves(text)
    if moves is None or not alternate(moves):
        return None
    return [(col, row) for _, col, row in moves]


def encode_game(game):
    """One game's bytes: `game` a dict with held, source, id, komi, winner,
    how, margin, moves."""
    flags = int(game["held"]) | (game["source"] << 1)
    komi = KOMI_UNKNOWN if game["komi"] is None else round(game["komi"] * 2)
    out = bytearray(HEADER.pack(flags, game["id"], komi, game["winner"], game["how"], game["margin"], len(game["moves"])))
    for col, row in game["moves"]:
        out += bytes((col, row))
    return bytes(out)


def decode_games(data):
    """The games of one slice's bytes (not xz'd), as encode_game takes them."""
    assert data.startswith(MAGIC), "not a slice of hane's game format"
    pos, games = len(MAGIC), []
    while pos < len(data):
        flags, gid, komi, winner, how, margin, n = HEADER.unpack_from(data, pos)
        pos += HEADER.size
        raw = data[pos : pos + 2 * n]
        pos += 2 * n
        moves = [(raw[2 * i], raw[2 * i + 1]) for i in range(n)]
        games.append(dict(held=bool(flags & 1), source=flags >> 1, id=gid, komi=None if komi == KOMI_UNKNOWN else komi / 2, winner=winner, how=how, margin=margin, moves=moves))
    return games


class Mirror:
    """A git repository of the dataset, read file by file."""

    def __init__(self, git_dir, rev="HEAD"):
        self.git_dir, self.rev = git_dir, rev

    def git(self, *args, check=True):
        return subprocess.run(["git", "--git-dir", self.git_dir, *args], capture_output=True, check=check)

    def files(self, folder):
        out = self.git("ls-tree", "-r", "--name-only", self.rev, folder).stdout.decode()
        return sorted(p for p in out.split("\n") if p)

    def has(self, path):
        return self.git("cat-file", "-e", f"{self.rev}:{path}", check=False).returncode == 0

    def read(self, path):
        return self.git("cat-file", "blob", f"{self.rev}:{path}").stdout


def unzip_all(data):
    z = zipfile.ZipFile(io.BytesIO(data))
    return b"\n".join(z.read(n) for n in sorted(z.namelist()))


def index_lines(text, result_column, komi_column=None):
    """An index's lines by ID: (date, result, komi or None)."""
    out = {}
    for line in text.split(b"\n"):
        cols = line.rstrip(b"\r").decode("utf-8", "replace").split("\t")
        if len(cols) <= result_column:
            continue
        komi = None
        if komi_column is not None:
            try:
                komi = float(cols[komi_column])
            except ValueError:
                pass
        out[cols[0]] = (cols[1], cols[result_column], komi)
    return out


def sources(mirror, stats):
    """(source, month, lines, index) per file, in the packing order; the
    missing blobs are noted in stats and skipped."""
    missing = stats["missing_blobs"]
    tom_index = {}
    if mirror.has("Tom/Kifu.index"):
        # Tom: ID, date, white, black, komi, result, ...
        tom_index = index_lines(mirror.read("Tom/Kifu.index"), 5, 4)
    else:
        missing.append("Tom/Kifu.index")
    for path in mirror.files("Tom/kifu"):
        if not mirror.has(path):
            missing.append(path)
            continue
        yield TOM, os.path.basename(path), mirror.read(path), tom_index
    indexes = {}
    for path in mirror.files("TYGEM/Kifu"):
        month = os.path.basename(path).removesuffix(".zip")
        if not mirror.has(path):
            missing.append(path)
            continue
        if excluded(month):
            # Never parsed: its games counted by their lines only.
            stats["excluded_2011_months"].append(month)
            stats["excluded_2011"] += sum(1 for l in unzip_all(mirror.read(path)).split(b"\n") if l.strip())
            continue
        year = month[:4]
        if year not in indexes:
            ipath = f"TYGEM/index/Kifu{year}.zip"
            if mirror.has(ipath):
                # TYGEM: ID, date, white, en, nation, black, en, nation, result, ...
                indexes[year] = index_lines(unzip_all(mirror.read(ipath)), 8)
            else:
                missing.append(ipath)
                indexes[year] = {}
        yield TYGEM, month, unzip_all(mirror.read(path)), indexes[year]


def games_of(mirror, stats):
    """Every distinct game in order with its held-out flag; 2011's counted
    and not yielded."""
    seen = set()
    number = 0
    for source, month, text, index in sources(mirror, stats):
        for line in text.split(b"\n"):
            if not line.strip():
                continue
            gid, tab, record = line.partition(b"\t")
            moves = parse_line_moves(record) if tab else None
            if moves is None:
                stats["unreadable_lines"] += 1
                continue
            # Distinct by colours and points, as write_planes tells games
            # apart: its count of Tom's distinct games is this one's.
            key = hashlib.blake2b(b"".join(bytes((c[0], x, y)) for c, x, y in moves), digest_size=12).digest()
            if key in seen:
                stats["duplicates"] += 1
                continue
            seen.add(key)
            held = number % HELD_OUT_EVERY == 0
            number += 1
            try:
                gid = int(gid)
            except ValueError:
                gid = -1
            if not alternate(moves) or not 0 <= gid < 2**32:
                # Counted (the held-out rule counts it as write_planes
                # does), not written: a record whose colours do not
                # alternate breaks the rules, the planes stop there.
                stats["not_written"] += 1
                continue
            moves = [(x, y) for _, x, y in moves]
            date, result, komi = index.get(str(gid), (None, None, None))
            if excluded(month, date):
                stats["excluded_2011"] += 1
                continue
            if source == TYGEM and komi is None:
                komi = TYGEM_KOMI
            winner, how, margin = parse_result(result)
            if komi is None:
                stats["komi_unknown"] += 1
            yield month, dict(held=held, source=source, id=gid, komi=komi, winner=winner, how=how, margin=margin, moves=moves)


def write_game(out, month, game):
    assert not excluded(month), "a game of 2011 must never be written"
    out.write(encode_game(game))


def fingerprint(data):
    return hashlib.sha256(data).hexdigest()[:16]


def pack(mirror, out_dir, slice_games, only=None, log=print):
    os.makedirs(out_dir, exist_ok=True)
    stats = dict(missing_blobs=[], excluded_2011_months=[], unreadable_lines=0, not_written=0, duplicates=0, excluded_2011=0, komi_unknown=0)
    slices = []
    current = None

    def close(current):
        raw = current["buf"].getvalue()
        entry = {k: current[k] for k in ("slice", "games", "held", "with_winner", "months")}
        entry["raw_bytes"] = len(raw)
        if only is None or current["slice"] == only:
            xz = lzma.compress(raw, preset=9 | lzma.PRESET_EXTREME)
            name = f"slice-{current['slice']:03d}.hgm.xz"
            with open(os.path.join(out_dir, name), "wb") as f:
                f.write(xz)
            entry.update(file=name, bytes=len(xz), bytes_per_game=round(len(xz) / max(1, current["games"]), 1), fingerprint=fingerprint(raw))
        slices.append(entry)
        log(json.dumps(entry))

    for month, game in games_of(mirror, stats):
        if current is None or current["games"] >= slice_games:
            if current is not None:
                close(current)
                if only is not None and current["slice"] >= only:
                    current = None
                    break
            current = dict(slice=len(slices), games=0, held=0, with_winner=0, months=[], buf=io.BytesIO())
            current["buf"].write(MAGIC)
        write_game(current["buf"], month, game)
        current["games"] += 1
        current["held"] += game["held"]
        current["with_winner"] += game["winner"] in (1, 2)
        source_month = ("Tom/" if game["source"] == TOM else "TYGEM/") + month
        if source_month not in current["months"]:
            current["months"].append(source_month)
    if current is not None:
        close(current)
    manifest = dict(format="HANEGAMES1", held_out_every=HELD_OUT_EVERY, excluded_year=EXCLUDED_YEAR, slice_games=slice_games, slices=slices, **stats)
    manifest["games"] = sum(s["games"] for s in slices)
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    return manifest


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mirror", required=True, help="a git dir of yenw/computer-go-dataset")
    ap.add_argument("--out", required=True, help="the slices' folder (git-ignored: gpu-kit/corpus)")
    ap.add_argument("--slice-games", type=int, default=200_000)
    ap.add_argument("--only", type=int, default=None, help="write this slice's file only (and stop after it)")
    args = ap.parse_args()
    m = pack(Mirror(args.mirror), args.out, args.slice_games, args.only, log=lambda s: print(s, file=sys.stderr, flush=True))
    print(json.dumps({k: v for k, v in m.items() if k != "slices"}, indent=1))


if __name__ == "__main__":
    main()
