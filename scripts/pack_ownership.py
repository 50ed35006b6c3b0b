#!/usr/bin/env python3
"""The final ownership of one slice's games, packed for a device call.

scripts/final_ownership.py writes its targets as text: 361 hundredths a
game, about 235 bytes a game once xz'd. A slice of 200,000 TYGEM games
would then carry 47 MB of ownership beside its 36 MB of moves, more than
the 64 MiB a call carries. Packed here:
  - only the games of the slice (`--slice`, scripts/pack_corpus.py's file),
    in its order, those with a line in the FILEs;
  - each share rounded to a multiple of `--quantum` hundredths (25: a
    quarter of a point; the target moves by 0.125 at most, against an
    ownership loss of about 0.33);
  - as bytes: `HANEOWN1\\n`, then per game the ID's length in a byte, the
    ID (a Tom game's, `tygem-ID` for TYGEM's, as final_ownership.py names
    them), and one signed byte a point in KataGo's order (row 19 first);
  - xz'd: about 96 bytes a game (slices 1 and 2).
examples/write_planes reads it with `--ownership`, as it reads the text.

    scripts/pack_ownership.py --slice slices/slice-001.hgm.xz \\
        --out gpu-kit/ownership.own.xz ownership-tom.txt ownership-tygem-1.txt

Nothing but the standard library.
"""

import argparse
import lzma
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pack_corpus import TOM, decode_games  # noqa: E402

MAGIC = b"HANEOWN1\n"
POINTS = 361


def ownership_id(game):
    """The ID final_ownership.py gives a slice's game."""
    return str(game["id"]) if game["source"] == TOM else f"tygem-{game['id']}"


def read_lines(paths):
    """Each game's hundredths by ID, from final_ownership.py's files (a
    later file's line for an ID replaces an earlier one's); a line whose
    numbers are not 361 in -100..=100 is left out."""
    by_id = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                game_id, _, numbers = line.rstrip("\n").partition("\t")
                try:
                    values = [int(n) for n in numbers.split()]
                except ValueError:
                    continue
                if len(values) == POINTS and all(-100 <= v <= 100 for v in values):
                    by_id[game_id] = values
    return by_id


def quantized(value, quantum):
    """`value` rounded to a multiple of `quantum`, halves away from 0 (as
    the same share of either colour rounds alike)."""
    steps = int(abs(value) / quantum + 0.5)
    return (1 if value >= 0 else -1) * min(steps * quantum, 100)


def pack(games, by_id, quantum):
    """The packed bytes (not xz'd) and the count of games in them."""
    out, packed = bytearray(MAGIC), 0
    for game in games:
        game_id = ownership_id(game)
        values = by_id.get(game_id)
        if values is None:
            continue
        name = game_id.encode()
        out.append(len(name))
        out += name
        out += bytes(quantized(v, quantum) & 0xFF for v in values)
        packed += 1
    return bytes(out), packed


def unpack(data):
    """(ID, hundredths) per game of packed bytes: the reading write_planes
    does, for the tests."""
    assert data.startswith(MAGIC), "not packed ownership"
    pos, games = len(MAGIC), []
    while pos < len(data):
        n = data[pos]
        game_id = data[pos + 1 : pos + 1 + n].decode()
        raw = data[pos + 1 + n : pos + 1 + n + POINTS]
        games.append((game_id, [b - 256 if b > 127 else b for b in raw]))
        pos += 1 + n + POINTS
    return games


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--slice", required=True, help="the slice (slice-NNN.hgm.xz)")
    p.add_argument("--out", required=True, help="the packed file, xz'd")
    p.add_argument("--quantum", type=int, default=25, help="hundredths a step (default 25)")
    p.add_argument("files", nargs="+", help="final_ownership.py's outputs")
    args = p.parse_args()
    if not 1 <= args.quantum <= 100:
        p.error("--quantum is 1 to 100")
    with open(args.slice, "rb") as f:
        games = decode_games(lzma.decompress(f.read()))
    by_id = read_lines(args.files)
    data, packed = pack(games, by_id, args.quantum)
    with open(args.out, "wb") as f:
        f.write(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))
    size = os.path.getsize(args.out)
    by_source = {}
    for game in games:
        known = ownership_id(game) in by_id
        source = "Tom" if game["source"] == TOM else "TYGEM"
        total, with_ownership = by_source.get(source, (0, 0))
        by_source[source] = (total + 1, with_ownership + known)
    counts = ", ".join(f"{s} {k:,} of {n:,}" for s, (n, k) in sorted(by_source.items()))
    print(f"{packed:,} games of {len(games):,} with their ownership ({counts}); "
          f"{size:,} bytes, {size / max(packed, 1):.1f} a game", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
