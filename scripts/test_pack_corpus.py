#!/usr/bin/env python3
"""Tests of scripts/pack_corpus.py on a tiny corpus made here (CI has no
corpus): a git repository laid out as yenw/computer-go-dataset, with games
of 2010 and of 2011. Run: python3 scripts/test_pack_corpus.py"""

import io
import lzma
import os
import subprocess
import sys
import tempfile
import unittest
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pack_corpus as pc  # noqa: E402
import final_ownership as fo  # noqa: E402
import pack_ownership as po  # noqa: E402


def line(gid, moves):
    return f"{gid}\t" + "".join(f";{'BW'[i % 2]}[{m}]" for i, m in enumerate(moves))


def zipped(name, text):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(name, text)
    return buf.getvalue()


class Corpus:
    """A git dir holding Tom and TYGEM files of 2010-12 and 2011-01."""

    def __init__(self, root):
        self.work = os.path.join(root, "work")
        files = {
            "Tom/kifu/2010-12": "\n".join([
                line(1, ["pd", "dd", "pp"]),
                line(2, ["pd", "dd", "pp"]),  # a repeat: left out
                line(3, ["qd", "", "dp"]),  # with a pass
                "4\t;B[pd];B[dd]",  # colours that do not alternate: counted, not written
                "6\tB[pd]",  # not a record: unreadable
                line(7, ["tt", "pd"]),  # [tt], a pass on 19x19; the same game as 8
                line(8, ["", "pd"]),
            ]) + "\n",
            "Tom/kifu/2011-01": line(5, ["aa", "bb"]) + "\n",
            "Tom/Kifu.index": "1\t2010.12.01 10:00\tw\tb\t6.5\tB+0.5\t3\t30/3 5m\n"
                              "3\t2010.12.02 10:00\tw\tb\t7.5\tW+Resign\t3\t30/3 5m\n"
                              "5\t2011.01.02 10:00\tw\tb\t6.5\tW+Resign\t2\t30/3 5m\n",
            "TYGEM/Kifu/2010-12.zip": zipped("2010-12", "\r\n".join([
                line(100, ["cc", "dd"]),
                line(101, ["ee", "ff", "gg"]),  # dated 2011 by its index: out
                line(102, ["hh"]),
            ]) + "\r\n"),
            "TYGEM/Kifu/2011-01.zip": zipped("2011-01", line(200, ["ss"]) + "\n" + line(201, ["rr"]) + "\n"),
            "TYGEM/index/Kifu2010.zip": zipped("Kifu2010.index", "\r\n".join([
                "100\tC2010.12.31 23:00\ta\ta\t0\tb\tb\t0\tW+12.5\t2\t10/3 0m",
                "101\tC2011.01.01 00:10\ta\ta\t0\tb\tb\t0\tB+Time\t3\t10/3 0m",
                "102\tC2010.12.31 23:00\ta\ta\t0\tb\tb\t0\tB+Offline\t1\t10/3 0m",
            ])),
        }
        for path, data in files.items():
            full = os.path.join(self.work, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "wb") as f:
                f.write(data if isinstance(data, bytes) else data.encode())
        git = ["git", "-C", self.work, "-c", "user.name=t", "-c", "user.email=t@t"]
        subprocess.run(git[:3] + ["init", "-q"], check=True)
        subprocess.run(git + ["add", "."], check=True)
        subprocess.run(git + ["commit", "-qm", "corpus"], check=True)
        self.git_dir = os.path.join(self.work, ".git")


class PackTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        corpus = Corpus(cls.tmp.name)
        cls.out = os.path.join(cls.tmp.name, "slices")
        cls.manifest = pc.pack(pc.Mirror(corpus.git_dir), cls.out, slice_games=3, log=lambda s: None)
        cls.games = []
        for s in cls.manifest["slices"]:
            with open(os.path.join(cls.out, s["file"]), "rb") as f:
                raw = lzma.decompress(f.read())
            assert pc.fingerprint(raw) == s["fingerprint"]
            cls.games += pc.decode_games(raw)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_no_game_of_2011(self):
        ids = [g["id"] for g in self.games]
        # Tom's 2011 file, TYGEM's 2011 month and a 2010 file's game dated
        # 2011 by its index: none written, all counted.
        for gid in (5, 101, 200, 201):
            self.assertNotIn(gid, ids)
        self.assertEqual(self.manifest["excluded_2011"], 4)
        self.assertEqual(self.manifest["excluded_2011_months"], ["2011-01"])
        self.assertTrue(pc.excluded("2011-07"))
        self.assertTrue(pc.excluded("2010-12", "C2011.01.01 00:10"))
        self.assertFalse(pc.excluded("2010-12", "2010.12.31"))
        self.assertFalse(any("2011" in m for s in self.manifest["slices"] for m in s["months"]))
        with self.assertRaises(AssertionError):
            pc.write_game(io.BytesIO(), "2011-03", self.games[0])

    def test_round_trip(self):
        by_id = {(g["source"], g["id"]): g for g in self.games}
        self.assertEqual(sorted(by_id), [(0, 1), (0, 3), (0, 7), (1, 100), (1, 102)])
        self.assertEqual(by_id[(0, 7)]["moves"], [(pc.PASS, pc.PASS), (15, 3)])
        # No index line: neither result nor komi known.
        self.assertEqual((by_id[(0, 7)]["komi"], by_id[(0, 7)]["winner"]), (None, 0))
        self.assertEqual(self.manifest["komi_unknown"], 1)
        self.assertEqual(self.manifest["duplicates"], 2)
        self.assertEqual(self.manifest["unreadable_lines"], 1)
        self.assertEqual(self.manifest["not_written"], 1)
        g = by_id[(0, 1)]
        self.assertEqual(g["moves"], [(15, 3), (3, 3), (15, 15)])
        self.assertEqual((g["komi"], g["winner"], g["how"], g["margin"]), (6.5, 1, pc.HOW_POINTS, 1))
        g = by_id[(0, 3)]
        self.assertEqual(g["moves"], [(16, 3), (pc.PASS, pc.PASS), (3, 15)])
        self.assertEqual((g["komi"], g["winner"], g["how"]), (7.5, 2, pc.HOW_RESIGN))
        g = by_id[(1, 100)]
        self.assertEqual((g["komi"], g["winner"], g["how"], g["margin"]), (6.5, 2, pc.HOW_POINTS, 25))
        g = by_id[(1, 102)]
        self.assertEqual((g["winner"], g["how"]), (1, pc.HOW_OTHER))
        self.assertEqual(pc.parse_result("W+Time"), (2, pc.HOW_TIME, 0))
        self.assertEqual(pc.parse_result(""), (0, pc.HOW_UNKNOWN, 0))
        for game in self.games:
            self.assertEqual(pc.decode_games(pc.MAGIC + pc.encode_game(game)), [game])

    def test_slices_and_held_out(self):
        self.assertEqual([s["games"] for s in self.manifest["slices"]], [3, 2])
        self.assertEqual([s["months"] for s in self.manifest["slices"]], [["Tom/2010-12"], ["TYGEM/2010-12"]])
        # Every 50th distinct game from the first: only the first here.
        self.assertEqual([g["held"] for g in self.games], [True, False, False, False, False])

    def test_the_layout_write_planes_reads(self):
        # The bytes examples/write_planes' test builds by hand for its first game.
        game = dict(held=True, source=0, id=77, komi=6.5, winner=1, how=0, margin=7,
                    moves=[(3, 3), (15, 15), (19, 19)])
        self.assertEqual(pc.encode_game(game),
                         bytes([1, 77, 0, 0, 0, 13, 1, 0, 7, 0, 3, 0, 3, 3, 15, 15, 19, 19]))

    def write_planes(self, name, ownership=None):
        """write_planes run on the corpus's games as one slice (and on
        packed `ownership` bytes): its folder and its meta.json."""
        work = os.path.join(self.tmp.name, name)
        os.makedirs(work, exist_ok=True)
        slice_path = os.path.join(work, "s.hgm")
        with open(slice_path, "wb") as f:
            f.write(pc.MAGIC + b"".join(pc.encode_game(g) for g in self.games))
        extra = []
        if ownership is not None:
            extra = ["--ownership", os.path.join(work, "own.bin")]
            with open(extra[1], "wb") as f:
                f.write(ownership)
        subprocess.run([os.environ["WRITE_PLANES"], "--threads", "1", "--out", work, *extra, slice_path],
                       check=True, capture_output=True)
        with open(os.path.join(work, "meta.json")) as f:
            return work, __import__("json").load(f)

    @unittest.skipUnless(os.environ.get("WRITE_PLANES"), "WRITE_PLANES: a built examples/write_planes")
    def test_write_planes_reads_a_slice(self):
        # WRITE_PLANES=target/release/examples/write_planes python3 scripts/test_pack_corpus.py
        work, meta = self.write_planes("wp")
        # Positions: every move of every game; the held-out one held.
        self.assertEqual((meta["games"], meta["held"], meta["train"]), (5, 3, 8))
        with open(os.path.join(work, "train-0.komi"), "rb") as f:
            komi = [b - 256 if b > 127 else b for b in f.read()]
        # The komi for the side to move: White's, Black's its negative.
        self.assertEqual(komi, [-15, 15, -15, -128, -128, -13, 13, -13])

    def test_final_ownership_asks_for_a_slices_games(self):
        # What final_ownership.py asks hane of a packed slice: each game's
        # moves as GTP vertices, its ID as pack_ownership.py looks it up.
        path = os.path.join(self.out, self.manifest["slices"][0]["file"])
        asked = dict(fo.queries([path], 7.5))
        self.assertEqual(sorted(asked), ["1", "3", "7"])
        self.assertEqual(asked["1"]["moves"], [["B", "Q16"], ["W", "D16"], ["B", "Q4"]])
        self.assertEqual(asked["3"]["moves"], [["B", "R16"], ["W", "pass"], ["B", "D4"]])
        self.assertEqual(asked["1"]["komi"], 7.5)
        path = os.path.join(self.out, self.manifest["slices"][1]["file"])
        self.assertEqual(sorted(dict(fo.queries([path], 7.5, "tygem", {"tygem-102"}))), ["tygem-100"])
        self.assertEqual(list(fo.queries([path], 7.5, "tom")), [])
        self.assertEqual([po.ownership_id(g) for g in self.games if g["source"] == pc.TYGEM], ["tygem-100", "tygem-102"])

    def test_packed_ownership(self):
        # Lines for Tom 1 and TYGEM 100 (named as final_ownership.py names
        # them), one for a game of no slice, and a short one for Tom 3.
        values = [100, -100, 12, -12, 13, -13, 37, 38, -62, -63, 0] + [50] * 350
        path = os.path.join(self.tmp.name, "own.txt")
        with open(path, "w") as f:
            for gid in ("1", "tygem-100", "999"):
                f.write(f"{gid}\t{' '.join(map(str, values))}\n")
            f.write("3\t1 2 3\n")
        by_id = po.read_lines([path])
        self.assertEqual(sorted(by_id), ["1", "999", "tygem-100"])
        data, packed = po.pack(self.games, by_id, 25)
        self.assertEqual(packed, 2)
        games = po.unpack(data)
        # The slices' order: Tom's games, then TYGEM's.
        self.assertEqual([g for g, _ in games], ["1", "tygem-100"])
        self.assertEqual(games[0][1][:11], [100, -100, 0, 0, 25, -25, 25, 50, -50, -75, 0])
        self.assertEqual(games[1][1], games[0][1])
        self.assertEqual(po.unpack(po.pack(self.games, by_id, 1)[0])[0][1], values)

    @unittest.skipUnless(os.environ.get("WRITE_PLANES"), "WRITE_PLANES: a built examples/write_planes")
    def test_write_planes_reads_packed_ownership(self):
        # White owns the board in all three: Tom 3 and TYGEM 100 are White's
        # wins, TYGEM 102 Black's, whose reading disagrees with its result
        # and is not taught.
        data, _ = po.pack(self.games, {"tygem-100": [-25] * 361, "3": [-50] * 361, "tygem-102": [-25] * 361}, 25)
        _, meta = self.write_planes("wp-own", data)
        # Every position of Tom 3 and of TYGEM 100, and no other.
        by_game = {g["id"]: len(g["moves"]) for g in self.games}
        self.assertEqual(meta["ownership_known"], by_game[3] + by_game[100])


if __name__ == "__main__":
    unittest.main()
