#!/usr/bin/env python3
"""Writes data/policy-net-golden.json from a training summary (OUT.json of
scripts/train_policy.py run with --golden): the logits the engine's forward
pass must reproduce (src/player/knowledge/network.rs's golden test).

  python3 scripts/golden_from_training.py net.json > data/policy-net-golden.json
"""
import json
import sys

summary = json.load(open(sys.argv[1]))
golden = summary.get("golden")
if not golden:
    sys.exit(f"{sys.argv[1]} has no golden logits: train with --golden")
json.dump(
    {
        "about": "Logits of data/policy-net.bin for positions of "
        "data/selfplay/19x19/game-0000.sgf (position i: before move i+1), from "
        "scripts/train_policy.py (float64 forward pass of the exported weights)",
        "sgf": "data/selfplay/19x19/game-0000.sgf",
        "network": {k: summary[k] for k in ("blocks", "channels", "held_out")},
        "positions": golden["positions"],
        "logits": golden["logits"],
    },
    sys.stdout,
)
print()
