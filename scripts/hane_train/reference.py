"""The one reference forward pass: a weights file's network computed from
its tensors alone (export.read), in float64, as the engine computes it
(src/player/network/forward.rs). It writes the golden file the engine's
test reads (data/policy-net-golden.json: `the_shipped_network_reproduces_
the_training_frameworks_logits`, within 1e-4) and checks a file against
one.

    # the golden positions: write_planes on the golden game, no split
    cargo run --release --example write_planes -- --held-out-every 0 \\
        --threads 1 --out golden data/selfplay/19x19/game-0000.sgf
    # a network's golden file
    PYTHONPATH=scripts python3 -m hane_train.reference NET.bin --planes golden \\
        --write NET-golden.json
    # the shipped network against the shipped golden file
    PYTHONPATH=scripts python3 -m hane_train.reference data/policy-net.bin \\
        --planes golden --check data/policy-net-golden.json

    # the pooling check: a small seeded network whose every block kind and
    # head is used (global pooling's map not at 0), and its golden file
    PYTHONPATH=scripts python3 -m hane_train.reference data/pooling-net.bin \
        --make-pooling-net --planes golden --write data/pooling-net-golden.json

The golden file: "positions" (indices into the golden game: position i is
the one before move i+1), "logits" (the policy's, pass last), "values"
(the value logit, whose sigmoid is the side to move's chance; with a value
head that gives one), "score" (with a score head: the logits of the final
margins, a row a position, lowest margin first) and "ownership" (tanh, +1 the side to move's, a row per position in
`BoardSize::index` order; with an ownership head), and "network" (the
sizes and, from train.py, the held-out measures).
"""

import argparse
import json
import sys

import torch
import torch.nn.functional as F

from . import export
from .model import SCORE_BINS, Net, pooling_blocks
from .planes import golden_inputs

GOLDEN_POSITIONS = [0, 1, 20, 60, 120, 200]
GOLDEN_SGF = "data/selfplay/19x19/game-0000.sgf"


def forward(shape, tensors, x):
    """(policy logits with pass, value logits (N,) or score logits (N, S)
    or None, ownership (tanh) or None) of float64 planes x (N, planes,
    size, size)."""
    it = iter(tensors)
    h = F.relu(F.conv2d(x, next(it), next(it), padding=shape["kernel"] // 2))
    pooling = pooling_blocks(shape["blocks"], shape.get("gpool_every", 0))
    for block in range(shape["blocks"]):
        w1, b1 = next(it), next(it)
        inner = F.conv2d(h, w1, b1, padding=1)
        if block in pooling:
            gw, gb, gfc = (next(it) for _ in range(3))
            g = F.relu(F.conv2d(h, gw, gb, padding=1))
            pooled = torch.cat([g.mean(dim=(2, 3)), g.amax(dim=(2, 3))], 1)
            inner = inner + (pooled @ gfc.T).view(inner.shape[0], -1, 1, 1)
        w2, b2 = next(it), next(it)
        h = F.relu(h + F.conv2d(F.relu(inner), w2, b2, padding=1))
    hw, hb, pw, pb = (next(it) for _ in range(4))
    points = torch.einsum("c,nchw->nhw", hw, h).flatten(1) + hb
    policy = torch.cat([points, (h.mean(dim=(2, 3)) @ pw + pb).unsqueeze(1)], 1)
    value = ownership = None
    if shape["value_channels"]:
        vw, vb, w1, b1, w2, b2 = (next(it) for _ in range(6))
        v = F.relu(torch.einsum("vc,nchw->nvhw", vw, h) + vb.view(1, -1, 1, 1))
        pooled = torch.cat([v.mean(dim=(2, 3)), v.amax(dim=(2, 3))], 1)
        hidden = F.relu(pooled @ w1.T + b1)
        value = hidden @ w2.T + b2 if w2.dim() == 2 else hidden @ w2 + b2
    if shape["ownership_channels"]:
        ow, ob, w2, b2 = (next(it) for _ in range(4))
        o = F.relu(F.conv2d(h, ow, ob, padding=1))
        ownership = torch.tanh(torch.einsum("o,nohw->nhw", w2, o) + b2).flatten(1)
    return policy, value, ownership


def outputs(path, planes, positions=GOLDEN_POSITIONS):
    """The golden outputs of a weights file on a golden planes folder."""
    _, shape, tensors = export.read(path)
    chosen, x = golden_inputs(planes, positions, shape["planes"])
    policy, value, ownership = forward(shape, tensors, x)
    out = {"positions": chosen, "logits": policy.tolist()}
    if value is not None:
        out["score" if value.dim() == 2 else "values"] = value.tolist()
    if ownership is not None:
        out["ownership"] = ownership.tolist()
    return shape, out


def golden_file(path, planes, network=None, about=None):
    """The golden file's content for a weights file."""
    shape, out = outputs(path, planes)
    rounded = {k: [[round(v, 6) for v in row] for row in out[k]] for k in ("logits", "score", "ownership") if k in out}
    if "values" in out:
        rounded["values"] = [round(v, 6) for v in out["values"]]
    return {
        "about": about or f"Outputs of the network for positions of {GOLDEN_SGF} (position i: before move i+1), "
        "from scripts/hane_train/reference.py (the exported file's forward pass, float64)",
        "sgf": GOLDEN_SGF,
        "network": {**shape, **(network or {})},
        "positions": out["positions"],
        **rounded,
    }


def differences(a, b):
    """The largest difference of each output two golden sets share; an
    output one has and the other lacks is a difference of infinity."""
    out = {}
    for k in ("logits", "values", "score", "ownership"):
        if (k in a) != (k in b):
            out[k] = float("inf")
        elif k in a:
            out[k] = (torch.tensor(a[k], dtype=torch.float64) - torch.tensor(b[k], dtype=torch.float64)).abs().max().item()
    return out


def pooling_net(path):
    """A small network with global pooling (3 blocks of 16 channels, the
    second pooling over 8) and a score head, seeded, every weight and batch
    norm statistic drawn, so that the engine's test of version 5 files
    checks a pooling whose bias matters and the score head's margins."""
    torch.manual_seed(56)
    model = Net(3, 16, 8, 16, 8, planes=20, gpool_channels=8, gpool_every=2, score_bins=SCORE_BINS)
    with torch.no_grad():
        for b in model.blocks:
            if b.gpool is not None:
                b.gpool.fc.weight.normal_(0, 0.3)
        for m in model.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.normal_(0, 0.1)
                m.running_var.uniform_(0.5, 2)
                m.weight.uniform_(0.5, 1.5)
                m.bias.normal_(0, 0.1)
    export.write(model.eval(), path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("weights")
    ap.add_argument("--planes", required=True, help="write_planes' folder of the golden game")
    ap.add_argument("--write", help="write the golden file here")
    ap.add_argument("--check", help="a golden file the weights must reproduce")
    ap.add_argument("--tolerance", type=float, default=1e-4)
    ap.add_argument("--make-pooling-net", action="store_true", help="write the pooling check's network to WEIGHTS first")
    args = ap.parse_args()
    torch.set_num_threads(1)
    if args.make_pooling_net:
        pooling_net(args.weights)
    gold = golden_file(args.weights, args.planes)
    if args.write:
        with open(args.write, "w") as f:
            json.dump(gold, f)
            f.write("\n")
    if args.check:
        want = json.load(open(args.check))
        if want["positions"] != gold["positions"]:
            sys.exit(f"positions {gold['positions']}, the golden file's {want['positions']}")
        _, exact = outputs(args.weights, args.planes, want["positions"])
        diff = differences(exact, want)
        print(json.dumps({"weights": args.weights, "golden": args.check, "max_difference": diff}))
        if not max(diff.values()) <= args.tolerance:  # NaN fails too
            sys.exit(f"differs by more than {args.tolerance}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
