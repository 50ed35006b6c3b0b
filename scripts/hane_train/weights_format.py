"""The weights file's header as data: data/weights-format.json, the one
table of the format's versions and the words each version's header holds,
which the engine's loader (src/player/network/network_file.rs) is tested
against. export.py writes and reads headers through it. Standard library
only, so that the format's test (scripts/test_weights_format.py) runs
without the training stack."""

import json
import os
import struct

FORMAT_FILE = os.path.join(os.path.dirname(__file__), "..", "..", "data", "weights-format.json")

with open(FORMAT_FILE) as f:
    _FORMAT = json.load(f)

MAGIC = _FORMAT["magic"].encode()
# version -> the header's words after the version word, in order.
WORDS = {v["version"]: v["words"] for v in _FORMAT["versions"]}
VERSION = max(WORDS)


def signed(word):
    """Whether a header word is two's complement (the komis)."""
    return word.endswith("_half_points")


def pack_header(values, version=VERSION):
    """The magic, the version word and `values`' words (a dict by word
    name; a word it lacks is 0) as bytes."""
    out = MAGIC + struct.pack("<I", version)
    for word in WORDS[version]:
        out += struct.pack("<i" if signed(word) else "<I", values.get(word, 0))
    return out


def unpack_header(data):
    """(version, dict of the header's words by name, bytes before the first
    weight) of a weights file's bytes; every word the version lacks 0.
    Raises ValueError for bytes that are not a weights file or a version
    not in the table."""
    if data[:8] != MAGIC or len(data) < 12:
        raise ValueError("not a hane weights file")
    version = struct.unpack_from("<I", data, 8)[0]
    if version not in WORDS:
        raise ValueError(f"format version {version}, this reads 1 to {VERSION}")
    values = {w: 0 for words in WORDS.values() for w in words}
    for i, word in enumerate(WORDS[version]):
        values[word] = struct.unpack_from("<i" if signed(word) else "<I", data, 12 + 4 * i)[0]
    return version, values, 12 + 4 * len(WORDS[version])
