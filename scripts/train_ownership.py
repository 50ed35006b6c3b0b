#!/usr/bin/env python3
"""Trains hane's ownership head (who owns each point at the game's end, for
the side to move) on the trunk of an exported network, and exports the
network in version 3 of the engine's weights format: version 2's tensors
(trunk, policy, value head) unchanged, the ownership head after them.

The search reads the head's sum, the side to move's expected area less the
opponent's, as the position's score: a lead that does not depend on which
random playouts a search happened to draw.

Data: a folder of examples/write_planes written with `--results` and
`--ownership FILE` (FILE from scripts/final_ownership.py: hane's own
search of each game's final position), so beside the planes each position
has its `.own` bytes. The trunk's features are mode head's of
scripts/train_value.py (the same cache and the same random symmetry a taught
position, which is replayed here and applied to the targets too): both
heads can share one cache.

    python3 scripts/train_ownership.py --data PLANES --init data/policy-net.bin \\
        --cache FEATURES --out OUT --golden GOLDEN_PLANES

The head (fixed: the engine implements exactly this): from the trunk's
output (C channels, after the last block's ReLU), a 3x3 convolution to O
channels with bias, ReLU, a 1x1 convolution to one channel with bias; the
ownership of a point is tanh of it (+1: the side to move's). Trained with
the binary cross entropy of (1 + tanh) / 2 against (1 + target) / 2, AdamW,
a cosine over `--epochs`, stopped when the validation loss (the last
`--val-fraction` of the taught positions, whole games but one) stops
falling; the best epoch's weights kept.

Weights format version 3: the 8 bytes HANEPOL1, eight little-endian u32
(format version 3, input planes, channels, residual blocks, the stem's
kernel side, V, H, O), version 2's tensors, then the ownership head's: the
3x3 convolution's weights (O x C x 3 x 3) and bias (O), the 1x1's weights
(O) and bias (1).

Writes OUT.bin, OUT.json (measures; `golden`: the model's own outputs,
float64, eval mode: policy logits, value logits and ownership of the golden
positions) and OUT.pt. The exported file's own float64 forward pass must
match the model's (1e-4), or the script stops.
"""

import argparse
import hashlib
import json
import os
import struct
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_policy import MAGIC, golden_planes, load_split, symmetry  # noqa: E402
from train_value import PHASES, base_from_file, features, file_forward, fit_head, head_logits, load_values, read_weights, split_tensors  # noqa: E402

FORMAT_VERSION = 3
UNKNOWN = -128


class OwnershipHead(nn.Module):
    """3x3 convolution, ReLU, 1x1 convolution: a logit a point whose tanh
    is the owner."""

    def __init__(self, channels, ownership_channels):
        super().__init__()
        self.ownership_channels = ownership_channels
        self.conv1 = nn.Conv2d(channels, ownership_channels, 3, padding=1)
        self.conv2 = nn.Conv2d(ownership_channels, 1, 1)

    def forward(self, trunk):
        return self.conv2(F.relu(self.conv1(trunk))).squeeze(1)

    def tensors(self):
        d = lambda t: t.detach().double()
        return [d(self.conv1.weight), d(self.conv1.bias), d(self.conv2.weight).flatten(), d(self.conv2.bias)]


class FileValue(nn.Module):
    """The value head as a version 2 file holds it (batch norm folded)."""

    def __init__(self, tensors):
        super().__init__()
        self.vw, self.vb, self.w1, self.b1, self.w2, self.b2 = (nn.Parameter(t.float(), requires_grad=False) for t in tensors)

    def forward(self, h):
        v = F.relu(torch.einsum("vc,nchw->nvhw", self.vw, h) + self.vb.view(1, -1, 1, 1))
        pooled = torch.cat([v.mean(dim=(2, 3)), v.amax(dim=(2, 3))], 1)
        return F.relu(pooled @ self.w1.T + self.b1) @ self.w2 + self.b2

    def tensors(self):
        return [p.detach().double() for p in (self.vw, self.vb, self.w1, self.b1, self.w2, self.b2)]


class OwnershipModel(nn.Module):
    """The file's trunk, policy and value, and the trained ownership head."""

    def __init__(self, base, value, ownership):
        super().__init__()
        self.base, self.value, self.ownership = base, value, ownership

    def forward(self, x):
        h = self.base.trunk(x)
        return self.base.policy(h), self.value(h), self.ownership(h).flatten(1)


def load_ownership(data, split, limit=None):
    """The `.own` bytes of a split (N, points), in load_split's order."""
    import glob

    meta = json.load(open(os.path.join(data, "meta.json")))
    points = meta["size"] ** 2
    parts = []
    for b in sorted(glob.glob(os.path.join(data, f"{split}-*.bin"))):
        own = b[:-4] + ".own"
        if not os.path.exists(own):
            sys.exit(f"{own} is missing: write the planes with write_planes --ownership")
        parts.append(np.fromfile(own, dtype=np.int8).reshape(-1, points))
    o = np.concatenate(parts) if parts else np.zeros((0, points), np.int8)
    return o[:limit] if limit is not None else o


def feature_symmetries(n, seed, batch=256):
    """The symmetry `features` drew for each of n taught positions: its
    generator's draws replayed, batch by batch."""
    g = torch.Generator().manual_seed(seed)
    out = []
    for i in range(0, n, batch):
        out.append(torch.randint(0, 8, (min(batch, n - i),), generator=g))
    return torch.cat(out) if out else torch.zeros(0, dtype=torch.long)


def targets(own, idx, syms, size):
    """The targets in [-1, 1] of positions `idx` (N, size, size), each under
    its features' symmetry, and the mask of the known ones."""
    t = torch.from_numpy(own[idx].astype(np.float32)).view(-1, size, size)
    known = (t[:, 0, 0] != UNKNOWN).float()
    if syms is not None:
        s = syms[idx]
        for k in range(8):
            m = (s == k).nonzero(as_tuple=True)[0]
            if m.numel():
                t[m] = symmetry(t[m], k)
    return t / 100.0, known


def loss_of(z, t, known):
    per = F.binary_cross_entropy_with_logits(2 * z, (t + 1) / 2, reduction="none").mean(dim=(1, 2))
    return (per * known).sum() / known.sum().clamp(min=1)


def predictions(head, feats, idx):
    """The owners (tanh) the head gives positions `idx` of `feats`."""
    return torch.tanh(head_logits(head, feats, idx))


def measures(pred, t, numbers):
    """Mean squared error a point, the share of points whose owner (|target|
    > 0.5) the sign names, and the area difference's error (the sum of the
    ownership against the target's), overall and by phase."""
    numbers = torch.as_tensor(numbers)
    mse = ((pred - t) ** 2).mean(dim=(1, 2))
    decided = t.abs() > 0.5
    right = ((pred.sign() == t.sign()) & decided).sum(dim=(1, 2)).double() / decided.sum(dim=(1, 2)).clamp(min=1)
    area_error = (pred.sum(dim=(1, 2)) - t.sum(dim=(1, 2))).abs()

    def summary(m):
        return {"positions": int(m.sum()), "mse": float(mse[m].mean()), "owner_right": float(right[m].mean()),
                "area_error_mean": float(area_error[m].mean()), "area_error_median": float(area_error[m].median())}

    out = summary(torch.ones_like(mse, dtype=torch.bool))
    out["by_phase"] = {}
    for lo, hi in PHASES:
        m = (numbers >= lo) & (numbers < hi)
        if m.any():
            out["by_phase"][f"{lo}-{hi - 1}" if hi < 10**6 else f"{lo}+"] = summary(m)
    return out


def describe(name, m):
    phases = ", ".join(f"{k}: {v['owner_right']:.3f} / {v['area_error_median']:.1f}" for k, v in m["by_phase"].items())
    return (f"{name}: {m['positions']} positions, MSE {m['mse']:.4f}, owner right {m['owner_right']:.3f}, "
            f"area error mean {m['area_error_mean']:.2f} median {m['area_error_median']:.2f}; by moves (owner right / area median) {phases}")


def export(path, init_path, head):
    """Version 3: the init file's tensors as they are, then the head's."""
    header, _ = read_weights(init_path)
    data = open(init_path, "rb").read()
    words = 5 if header["version"] == 1 else 7 if header["version"] == 2 else 8
    body = data[8 + 4 * words :]
    if header["version"] == 3:
        # Its ownership head is replaced.
        o, c = header["ownership_channels"], header["channels"]
        body = body[: len(body) - 4 * (o * c * 9 + 2 * o + 1)]
    with open(path, "wb") as f:
        f.write(MAGIC)
        f.write(struct.pack("<8I", FORMAT_VERSION, header["planes"], header["channels"], header["blocks"], header["kernel"],
                            header["value_channels"], header["hidden"], head.ownership_channels))
        f.write(body)
        for t in head.tensors():
            f.write(t.cpu().numpy().astype("<f4").tobytes())


def file_ownership(tensors, header, x):
    """The ownership (tanh) of the file's head, float64, from its tensors
    alone: what the engine computes."""
    it = iter(tensors)
    k = header["kernel"]
    h = F.relu(F.conv2d(x, next(it), next(it), padding=k // 2))
    for _ in range(header["blocks"]):
        w1, b1, w2, b2 = next(it), next(it), next(it), next(it)
        h = F.relu(h + F.conv2d(F.relu(F.conv2d(h, w1, b1, padding=1)), w2, b2, padding=1))
    w, b, w2, b2 = tensors[-4:]
    o = F.relu(F.conv2d(h, w, b, padding=1))
    return torch.tanh(torch.einsum("o,nohw->nhw", w2, o) + b2).flatten(1)


def check_export(path, gold):
    header, values = read_weights(path)
    tensors = split_tensors(header, values)
    logits, value = file_forward(tensors, header, gold["inputs"])
    own = file_ownership(tensors, header, gold["inputs"])
    diffs = {
        "policy": (logits - torch.tensor(gold["logits"], dtype=torch.float64)).abs().max().item(),
        "value": (value - torch.tensor(gold["values"], dtype=torch.float64)).abs().max().item(),
        "ownership": (own - torch.tensor(gold["ownership"], dtype=torch.float64)).abs().max().item(),
    }
    if not max(diffs.values()) <= 1e-4:  # NaN fails too
        sys.exit(f"{path}: the file's forward pass differs from the model's: {diffs}")
    return diffs


@torch.no_grad()
def golden(model, path, size, planes, positions):
    chosen, xb = golden_planes(path, size, planes, positions)
    model = model.double().eval()
    logits, values, own = model(xb)
    model.float()
    return {
        "positions": chosen,
        "logits": [[round(v, 6) for v in row] for row in logits.tolist()],
        "values": [round(v, 6) for v in values.tolist()],
        "ownership": [[round(v, 6) for v in row] for row in torch.tanh(own).tolist()],
        "inputs": xb,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True)
    ap.add_argument("--init", required=True, help="the weights file (version 2 or 3) whose trunk, policy and value are kept")
    ap.add_argument("--out", required=True)
    ap.add_argument("--cache", required=True, help="train_value.py's feature cache (made here if missing)")
    ap.add_argument("--ownership-channels", type=int, default=32, help="O")
    ap.add_argument("--golden", default=None)
    ap.add_argument("--golden-positions", default="0,1,20,60,120,200")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--lr", type=float, default=0.002)
    ap.add_argument("--weight-decay", type=float, default=1e-4)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--patience", type=int, default=3)
    ap.add_argument("--val-fraction", type=float, default=0.05)
    ap.add_argument("--max-epoch-positions", type=int, default=None, help="positions an epoch (default: all)")
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    torch.set_num_threads(args.threads)
    start = time.time()
    log = lambda msg: print(f"[{os.path.basename(args.out)} {time.time() - start:7.1f}s] {msg}", flush=True)

    base, header = base_from_file(args.init)
    if not header["value_channels"]:
        sys.exit(f"{args.init} has no value head: train it first (train_value.py --mode head)")
    tensors = split_tensors(header, read_weights(args.init)[1])
    value_tensors = tensors[len(tensors) - 6 - (4 if header["ownership_channels"] else 0) :][:6]
    meta = json.load(open(os.path.join(args.data, "meta.json")))
    size, planes = meta["size"], meta["planes"]
    xtr, _ = load_split(args.data, "train", size, planes)
    xho, _ = load_split(args.data, "held", size, planes)
    _, ntr = load_values(args.data, "train")
    _, nho = load_values(args.data, "held")
    otr, oho = load_ownership(args.data, "train"), load_ownership(args.data, "held")
    known_tr = np.nonzero(otr[:, 0] != UNKNOWN)[0]
    known_ho = np.nonzero(oho[:, 0] != UNKNOWN)[0]
    log(f"{len(known_tr)} taught positions with an ownership (of {len(otr)}), {len(known_ho)} held out (of {len(oho)})")
    cut = int(len(known_tr) * (1 - args.val_fraction))
    fit, val = known_tr[:cut], known_tr[cut:]
    os.makedirs(args.cache, exist_ok=True)
    ftr = features(base, xtr, size, planes, args.cache, "train", True, args.seed, log)
    fho = features(base, xho, size, planes, args.cache, "held", False, args.seed, log)
    syms = feature_symmetries(len(xtr), args.seed)

    head = OwnershipHead(base.channels, args.ownership_channels)
    opt = torch.optim.AdamW(head.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    tval, kval = targets(otr, val, syms, size)

    def batch_loss(idx):
        t, known = targets(otr, idx, syms, size)
        return loss_of(head(torch.from_numpy(np.asarray(ftr[idx], dtype=np.float32))), t, known)

    def val_loss():
        return loss_of(head_logits(head, ftr, val), tval, kval).item()

    history, best_epoch = fit_head(head, opt, args, fit, batch_loss, val_loss, log, args.max_epoch_positions)
    result = {}
    for name, feats, own, idx, nums, s in [("taught", ftr, otr, fit[:20000], ntr, syms), ("validation", ftr, otr, val, ntr, syms),
                                           ("held_out", fho, oho, known_ho, nho, None)]:
        t, _ = targets(own, idx, s, size)
        result[name] = measures(predictions(head, feats, idx), t, nums[idx])
        log(describe(name, result[name]))

    model = OwnershipModel(base, FileValue(value_tensors), head).eval()
    export(args.out + ".bin", args.init, head)
    summary = {
        "format_version": FORMAT_VERSION,
        "init": args.init,
        "init_sha256": hashlib.sha256(open(args.init, "rb").read()).hexdigest(),
        "blocks": header["blocks"], "channels": header["channels"], "planes": planes,
        "value_channels": header["value_channels"], "hidden": header["hidden"],
        "ownership_channels": args.ownership_channels,
        "seed": args.seed, "lr": args.lr, "batch": args.batch, "weight_decay": args.weight_decay,
        "data": os.path.abspath(args.data), "data_meta": meta,
        "torch": torch.__version__, "numpy": np.__version__,
        "positions": {"fit": len(fit), "validation": len(val), "held_out": len(known_ho)},
        "best_epoch": best_epoch, "history": history, "ownership": result,
        "seconds": round(time.time() - start),
    }
    if args.golden:
        positions = [int(p) for p in args.golden_positions.split(",") if p]
        gold = golden(model, args.golden, size, planes, positions)
        summary["export_check_max_difference"] = check_export(args.out + ".bin", gold)
        log(f"exported file's forward pass against the model's: {summary['export_check_max_difference']}")
        del gold["inputs"]
        summary["golden"] = gold
        summary["held_out"] = {"ownership": result["held_out"]}
    torch.save({"head": head.state_dict(), "init": args.init, "ownership_channels": args.ownership_channels}, args.out + ".pt")
    with open(args.out + ".json", "w") as f:
        json.dump(summary, f, indent=1)
    log(f"wrote {args.out}.bin, .json, .pt")
    return 0


if __name__ == "__main__":
    sys.exit(main())
