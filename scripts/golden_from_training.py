#!/usr/bin/env python3
"""Writes the engine's golden file (data/policy-net-golden.json) from a
training summary: OUT.json of scripts/train_policy.py or
scripts/train_value.py run with --golden. It holds the outputs the engine's
forward pass must reproduce (src/player/knowledge/network.rs's golden test):
"logits" (the policy's, pass last) and, for a network with a value head
(train_value.py, weights format version 2), "values" (the value logit of
each position, the side to move's chance of winning being its sigmoid),
and for one with an ownership head (train_ownership.py, version 3),
"ownership" (each point's owner, tanh, +1 the side to move's).

  python3 scripts/golden_from_training.py net.json > data/policy-net-golden.json

Both scripts write the trained PyTorch model's own outputs (eval mode,
float64), so that a mistake in the export shows as a difference (summaries
of train_policy.py before it did hold a float64 forward pass of the
exported weights instead).
"""
import json
import sys

summary = json.load(open(sys.argv[1]))
golden = summary.get("golden")
if not golden:
    sys.exit(f"{sys.argv[1]} has no golden logits: train with --golden")
if summary.get("format_version") == 3:
    source = (
        "scripts/train_ownership.py (the trained model's own outputs, eval mode, "
        "float64)"
    )
elif "mode" in summary:
    source = (
        f"scripts/train_value.py --mode {summary['mode']} (the trained model's own "
        "outputs, eval mode, float64)"
    )
else:
    source = "scripts/train_policy.py (float64)"
network = {k: summary[k] for k in ("blocks", "channels", "held_out") if k in summary}
for k in ("format_version", "value_channels", "hidden", "ownership_channels"):
    if k in summary:
        network[k] = summary[k]
out = {
    "about": "Outputs of the network for positions of "
    "data/selfplay/19x19/game-0000.sgf (position i: before move i+1), from " + source,
    "sgf": "data/selfplay/19x19/game-0000.sgf",
    "network": network,
    "positions": golden["positions"],
    "logits": golden["logits"],
}
if "values" in golden:
    out["values"] = golden["values"]
if "ownership" in golden:
    out["ownership"] = golden["ownership"]
json.dump(out, sys.stdout)
print()
