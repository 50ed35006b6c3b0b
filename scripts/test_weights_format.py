#!/usr/bin/env python3
"""The weights file's version table (data/weights-format.json) as the
exporter's side reads it: each version's words extend the one before, the
shipped files' headers decode by it to sizes whose tensors fill the file
exactly, and a header packed and unpacked is the same. The engine's loader
is checked against the same table by its own test
(network_file::tests::the_loaders_versions_are_the_format_files).
Standard library only; with torch present, the exporter's write and read
of a small network too."""

import os
import struct
import sys
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from hane_train import weights_format  # noqa: E402


def floats_of(words):
    """The f32s a header's sizes ask for (the format's layout, as
    network_file.rs's `Header::floats` counts them)."""
    p, c, b, k = words["planes"], words["channels"], words["blocks"], words["kernel"]
    v, h, o = words["value_channels"], words["hidden"], words["ownership_channels"]
    g, every, s = words["gpool_channels"], words["gpool_every"], words["score_bins"]
    pooling = sum(1 for i in range(b) if every and i % every == every - 1)
    value = v * (c + 1) + h * (2 * v + 1) + max(s, 1) * (h + 1) if v else 0
    ownership = o * (c * 9 + 1) + o + 1 if o else 0
    return c * (p * k * k + 1) + b * 2 * c * (c * 9 + 1) + pooling * (g * (c * 9 + 1) + c * 2 * g) + 2 * (c + 1) + value + ownership


class WeightsFormat(unittest.TestCase):
    def test_each_version_extends_the_one_before(self):
        versions = sorted(weights_format.WORDS)
        self.assertEqual(versions, list(range(1, weights_format.VERSION + 1)))
        for v in versions[1:]:
            before, now = weights_format.WORDS[v - 1], weights_format.WORDS[v]
            self.assertEqual(now[: len(before)], before, f"version {v}")
            self.assertGreater(len(now), len(before), f"version {v}")

    def test_the_shipped_files_decode_to_their_lengths(self):
        for name, version in [("policy-net.bin", 6), ("pooling-net.bin", 5), ("training/net.bin", 3)]:
            data = open(os.path.join(ROOT, "data", name), "rb").read()
            got, words, header = weights_format.unpack_header(data)
            self.assertEqual(got, version, name)
            self.assertEqual(len(data), header + 4 * floats_of(words), name)

    def test_a_header_packs_and_unpacks_to_itself(self):
        words = {"planes": 20, "channels": 128, "blocks": 10, "kernel": 5, "value_channels": 32, "hidden": 64,
                 "ownership_channels": 32, "komi_low_half_points": -15, "komi_high_half_points": 15}
        for version in weights_format.WORDS:
            data = weights_format.pack_header(words, version)
            got, back, header = weights_format.unpack_header(data)
            self.assertEqual((got, header), (version, len(data)))
            for word in weights_format.WORDS[version]:
                self.assertEqual(back[word], words.get(word, 0), f"{word} in version {version}")
        with self.assertRaises(ValueError):
            weights_format.unpack_header(b"HANEPOL1" + struct.pack("<I", weights_format.VERSION + 1))

    def test_the_exporter_writes_the_newest_version(self):
        try:
            import torch  # noqa: F401
            from hane_train import export, model
        except ImportError:
            self.skipTest("no torch: the exporter is not importable here")
        net = model.Net(planes=20, channels=16, blocks=2, value_channels=4, hidden=8, ownership_channels=4).eval()
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "net.bin")
            export.write(net, path)
            data = open(path, "rb").read()
            version, words, header = weights_format.unpack_header(data)
            self.assertEqual(version, weights_format.VERSION)
            self.assertEqual(len(data), header + 4 * floats_of(words))
            self.assertEqual((words["komi_low_half_points"], words["komi_high_half_points"]), (13, 15))
            _, shape, tensors = export.read(path)
            self.assertEqual(shape["taught_komi"], (6.5, 7.5))
            self.assertEqual(sum(t.numel() for t in tensors), floats_of(words))


if __name__ == "__main__":
    unittest.main()
