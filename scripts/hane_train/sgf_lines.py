"""SGF games as the corpus's line form, for a small corpus made of the
repository's own games (a check of the pipeline on a CPU; the real corpus,
yenw/computer-go-dataset, is in this form already).

Writes LINES (one game a line: `ID<TAB>;B[pd];W[dc];...`, a pass as
`B[]`) and INDEX (Kifu.index's form: `ID<TAB>date<TAB>white<TAB>black<TAB>
komi<TAB>result`), the ID the file's name, for `write_planes --results
INDEX` and `scripts/final_ownership.py`. Only 19x19 games without setup
stones; needs neither PyTorch nor numpy.

A game without a result (RE), as hane's self-play records are, gets one
with `--results-from OWNERSHIP` (scripts/final_ownership.py's file of the
same LINES): Black's area there less the komi (KM, 7.5 without), so that
the value head has labels; run once without it for LINES, then again with
it for INDEX.

    python3 scripts/hane_train/sgf_lines.py --lines tiny.txt --index tiny.index \\
        data/selfplay/19x19/*.sgf docs/soak/*.sgf
"""

import argparse
import os
import re
import sys

PROPERTY = re.compile(r"\b([A-Z]{1,2})((?:\[(?:[^\]\\]|\\.)*\])+)")
MOVE = re.compile(r";\s*([BW])\[([a-s]{0,2})\]")


def game(text):
    """(moves, properties of the root) of an SGF game, or None."""
    props = {k: v[1:-1] for k, v in PROPERTY.findall(text.split(";", 2)[1] if ";" in text else "")}
    if props.get("SZ", "19") != "19" or "AB" in text or "AW" in text:
        return None
    moves = [(c, "" if p == "tt" else p) for c, p in MOVE.findall(text)]
    return (moves, props) if moves else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lines", required=True)
    ap.add_argument("--index", required=True)
    ap.add_argument("--results-from", help="scripts/final_ownership.py's output: results of games without RE")
    ap.add_argument("sgf", nargs="+")
    args = ap.parse_args()
    areas = {}
    if args.results_from:
        for line in open(args.results_from):
            gid, _, own = line.rstrip("\n").partition("\t")
            areas[gid] = sum(int(v) for v in own.split()) / 100.0
    written = skipped = 0
    with open(args.lines, "w") as lines, open(args.index, "w") as index:
        for path in args.sgf:
            g = game(open(path, encoding="utf-8", errors="replace").read())
            if g is None:
                skipped += 1
                continue
            moves, props = g
            gid = os.path.splitext(os.path.basename(path))[0]
            if os.path.basename(os.path.dirname(path)) not in ("", "."):
                gid = os.path.basename(os.path.dirname(path)) + "-" + gid
            lines.write(gid + "\t" + "".join(f";{c}[{p}]" for c, p in moves) + "\n")
            result = props.get("RE", "")
            if not result and gid in areas:
                lead = areas[gid] - float(props.get("KM", "7.5") or 7.5)
                result = f"B+{lead:.1f}" if lead > 0 else f"W+{-lead:.1f}"
            index.write("\t".join([gid, props.get("DT", ""), props.get("PW", ""), props.get("PB", ""), props.get("KM", ""), result]) + "\n")
            written += 1
    print(f"{written} games written, {skipped} skipped (not 19x19, or setup stones)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
