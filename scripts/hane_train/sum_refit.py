"""Refit a network's ownership head, everything else frozen, so that the
head's sum over the board (the side to move's expected area less the
opponent's: the lead a client is shown, komi aside) matches the final
margins on average, without a GPU.

The per-point loss (train.py's `ownership_loss`) hardly sees a bias of a
hundredth of a point a point, which summed over 361 points is points of
lead: session 23's network read the side to move's area some 4.5 points
short whichever side it was, so the empty board's lead at 7.5 read -6.8
(KataGo's -0.85). This fits the head to the per-point loss plus
`--sum-weight` x ((sum - final margin) / 19)^2 where the margin is known
(train.py's `ownership_sum_loss`, which teaches the same from the start).
The trunk's features are computed once for `--positions` positions drawn
from the train split and kept in float16 (some 46 KB a 19x19 position),
so each epoch costs the head alone. The trunk, policy and value are
untouched: the moves the engine plays are the same.

    PYTHONPATH=scripts python3 -m hane_train.sum_refit data/training/net.bin \\
        --data PLANES --out refit.bin

PLANES: write_planes' folder with ownership targets and final margins
(`--ownership`, docs/network.md "TYGEM's ownership"). It prints the
held-out measures before and after each epoch: the ownership loss,
owners right, the sum's mean and RMS distance from the final margin, and
Black's area read by move number against the final count.
"""

import argparse
import json
import sys
import time

import numpy as np
import torch

from . import export
from .model import Net
from .planes import Split, extra_inputs, unpack
from .train import ownership_loss, ownership_sum_loss, ownership_targets


def load(path):
    _, shape, tensors = export.read(path)
    net = Net(shape["blocks"], shape["channels"], shape["value_channels"], shape["hidden"],
              shape["ownership_channels"], planes=shape["planes"], kernel=shape["kernel"],
              gpool_channels=shape.get("gpool_channels", 0), gpool_every=shape.get("gpool_every", 0),
              score_bins=shape.get("score_bins", 0))
    with torch.no_grad():
        export.load_into(net, shape, tensors)
    if net.ownership is None:
        sys.exit(f"{path}: no ownership head to refit")
    return net.eval(), shape


def features(net, split, idx, planes):
    """The trunk's output at positions `idx` of `split`, float16."""
    out = []
    for i in range(0, len(idx), 512):
        j = idx[i:i + 512]
        x = extra_inputs(unpack(torch.from_numpy(split.x[j]), split.size, split.planes),
                         torch.from_numpy(split.komi[j]), planes)
        with torch.no_grad():
            out.append(net.trunk(x).half())
    return torch.cat(out)


def targets(split, idx):
    if split.ownership is None:
        sys.exit("the planes have no ownership targets (write_planes --ownership)")
    own, known = ownership_targets(torch.from_numpy(split.ownership[idx]))
    return own, known, torch.from_numpy(split.margin[idx])


@torch.no_grad()
def measure(head, held, tag):
    f, own, known, margin, komi, numbers = held
    logits = torch.cat([head(f[i:i + 1024].float()) for i in range(0, len(f), 1024)])
    pred = torch.tanh(logits)
    decided = (own.abs() > 0.5) & known.view(-1, 1, 1)
    counted = ~torch.isnan(margin)
    summed = pred.sum(dim=(1, 2))
    off = (summed - margin)[counted]
    black = torch.where(komi < 0, 1.0, -1.0)[counted]
    read, final, nums = (summed[counted] * black), (margin[counted] * black), numbers[counted]
    out = {"tag": tag, "ownership_loss": round(float(ownership_loss(logits, own, known)), 4),
           "owners_right": round(float(((pred * own > 0) & decided).sum() / decided.sum().clamp(min=1)), 4),
           "sum_off": round(float(off.abs().mean()), 2), "sum_rms": round(float(off.pow(2).mean().sqrt()), 2),
           "black_area_read_and_final_by_move": {
               (f"{lo}-{hi - 1}" if hi < 10**6 else f"{lo}+"): [round(float(read[s].mean()), 2), round(float(final[s].mean()), 2)]
               for lo, hi in ((0, 50), (50, 100), (100, 150), (150, 10**6))
               for s in [(nums >= lo) & (nums < hi)] if s.any()}}
    print(json.dumps(out), flush=True)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("weights", help="the network (.bin) whose ownership head is refitted")
    ap.add_argument("--data", required=True, help="write_planes' folder, with ownership targets and final margins")
    ap.add_argument("--out", required=True, help="the refitted network (.bin)")
    ap.add_argument("--positions", type=int, default=48000, help="train positions drawn (default 48000)")
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--sum-weight", type=float, default=0.5)
    ap.add_argument("--lr", type=float, default=1e-3, help="Adam's, cosine to 0 (default 0.001)")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=None)
    args = ap.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    net, shape = load(args.weights)
    planes = shape["planes"]
    train = Split(args.data, "train")
    held_split = Split(args.data, "held")
    n = min(args.positions, len(train.komi))
    idx = np.sort(np.random.RandomState(args.seed).choice(len(train.komi), n, replace=False))
    t0 = time.time()
    tf = features(net, train, idx, planes)
    tt, tk, tm = targets(train, idx)
    hidx = np.arange(len(held_split.komi))
    held = (features(net, held_split, hidx, planes), *targets(held_split, hidx),
            torch.from_numpy(held_split.komi), torch.from_numpy(held_split.numbers))
    print(f"the trunk's features of {n} train and {len(hidx)} held-out positions in {time.time() - t0:.0f} s", flush=True)
    head = net.ownership
    measure(head, held, "before")
    opt = torch.optim.Adam(head.parameters(), lr=args.lr)
    per_epoch = n // args.batch
    steps, step = args.epochs * per_epoch, 0
    for epoch in range(args.epochs):
        perm = torch.randperm(n)
        for b in range(per_epoch):
            j = perm[b * args.batch:(b + 1) * args.batch]
            for group in opt.param_groups:
                group["lr"] = args.lr * 0.5 * (1 + np.cos(np.pi * step / steps))
            logits = head(tf[j].float())
            loss = ownership_loss(logits, tt[j], tk[j]) + args.sum_weight * ownership_sum_loss(logits, tm[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
        measure(head, held, f"epoch {epoch + 1}")
    taught = (shape["taught_komi"] if shape.get("taught_komi") else export.CORPUS_KOMIS)
    export.write(net, args.out, tuple(taught))
    print(f"wrote {args.out}", flush=True)


if __name__ == "__main__":
    main()
