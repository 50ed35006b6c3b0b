#!/usr/bin/env python3
"""Trains hane's move policy network on the planes examples/write_planes
wrote, and exports it in the engine's format (data/policy-net.bin).

The network (docs/network.md): a 5x5 convolution from the input planes to
C channels, B residual blocks of two 3x3 convolutions, batch norm and
ReLU, then a 1x1 convolution to one logit per point and, from the trunk's
average over the board, one logit for pass. Fully convolutional: the same
weights run on every board size. Training: the 8 symmetries of the board
at random per position, SGD with Nesterov momentum, weight decay, a
learning rate that warms up and then decays on a cosine over the time
given, bf16 autocast on a GPU. Every `--eval-every` seconds the top-1
accuracy on a fixed sample of held-out positions is measured and the best
weights so far are kept; at the end the best is measured on every held-out
position and exported with batch norm folded into the convolutions.

  python3 scripts/train_policy.py --data PLANES --out OUT --blocks 6 --channels 64 --steps 14000

(--steps is the run's length in batches of --batch, --minutes a limit; a
run without --steps is timed by --minutes, as the shipped policy was.)

writes OUT.bin (the weights, the engine's format), OUT.json (the
measurements, and the logits of the `--golden` positions that the engine's
forward pass must match), OUT.pt (a checkpoint, `--resume` continues from
it). Needs PyTorch and numpy; runs on the CPU too (slowly: `--device cpu`).
"""

import argparse
import glob
import json
import math
import os
import struct
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

MAGIC = b"HANEPOL1"
FORMAT_VERSION = 1
STEM_KERNEL = 5
# The planes (src/player/knowledge/planes.rs): the legal-move plane masks
# the logits when accuracy is measured, as the engine only ever weighs
# legal moves.
LEGAL_PLANE = 15


class Block(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x):
        h = F.relu(self.bn1(self.conv1(x)))
        h = self.bn2(self.conv2(h))
        return F.relu(x + h)


class PolicyNet(nn.Module):
    def __init__(self, planes, blocks, channels):
        super().__init__()
        self.planes, self.blocks_count, self.channels = planes, blocks, channels
        self.stem = nn.Conv2d(planes, channels, STEM_KERNEL, padding=STEM_KERNEL // 2, bias=False)
        self.stem_bn = nn.BatchNorm2d(channels)
        self.blocks = nn.ModuleList(Block(channels) for _ in range(blocks))
        self.head = nn.Conv2d(channels, 1, 1, bias=True)
        self.pass_fc = nn.Linear(channels, 1)

    def forward(self, x):
        h = F.relu(self.stem_bn(self.stem(x)))
        for block in self.blocks:
            h = block(h)
        points = self.head(h).flatten(1)
        pass_logit = self.pass_fc(h.mean(dim=(2, 3)))
        return torch.cat([points, pass_logit], dim=1)


def load_split(data, split, size, planes, limit=None):
    """The packed planes and moves of one split, as numpy arrays."""
    bpp = (planes * size * size + 7) // 8
    bins = sorted(glob.glob(os.path.join(data, f"{split}-*.bin")))
    xs, ys = [], []
    for b in bins:
        x = np.fromfile(b, dtype=np.uint8)
        y = np.fromfile(b[:-4] + ".lbl", dtype="<u2")
        assert x.size == y.size * bpp, f"{b}: {x.size} bytes for {y.size} moves"
        xs.append(x.reshape(-1, bpp))
        ys.append(y.astype(np.int64))
    x = np.concatenate(xs) if xs else np.zeros((0, bpp), np.uint8)
    y = np.concatenate(ys) if ys else np.zeros((0,), np.int64)
    if limit is not None:
        x, y = x[:limit], y[:limit]
    return x, y


def unpack(packed, size, planes):
    """Bit-packed positions (N, bytes) as float planes (N, planes, size, size)."""
    shifts = torch.arange(8, device=packed.device, dtype=torch.uint8)
    bits = (packed.unsqueeze(-1) >> shifts) & 1
    bits = bits.flatten(1)[:, : planes * size * size]
    # BoardSize::index order: row (from the bottom) times width plus column.
    return bits.view(-1, planes, size, size).float()


def symmetry(x, s):
    """One of the 8 symmetries of the square applied to the last two axes."""
    if s & 4:
        x = x.transpose(-1, -2)
    if s & 1:
        x = x.flip(-1)
    if s & 2:
        x = x.flip(-2)
    return x


def augment(x, y, size):
    """Each position under a random symmetry, its move moved with it."""
    n = x.shape[0]
    target = torch.zeros(n, 1, size * size + 1, device=x.device)
    target[torch.arange(n, device=x.device), 0, y] = 1.0
    board = target[:, :, : size * size].view(n, 1, size, size)
    both = torch.cat([x, board], dim=1)
    s = torch.randint(0, 8, (n,), device=x.device)
    out = torch.empty_like(both)
    for k in range(8):
        idx = (s == k).nonzero(as_tuple=True)[0]
        if idx.numel():
            out[idx] = symmetry(both[idx], k)
    moved = out[:, -1].flatten(1)
    is_pass = y == size * size
    y2 = torch.where(is_pass, y, moved.argmax(dim=1))
    return out[:, :-1].contiguous(), y2


@torch.no_grad()
def measure(model, xs, ys, size, planes, device, batch=4096):
    """Top-1 and top-5 among the legal moves (and pass), and the loss."""
    model.eval()
    correct = top5 = 0
    loss = 0.0
    for i in range(0, xs.shape[0], batch):
        xb = unpack(xs[i : i + batch].to(device), size, planes)
        yb = ys[i : i + batch].to(device)
        with torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=device.type == "cuda"):
            logits = model(xb.contiguous(memory_format=torch.channels_last)).float()
        loss += F.cross_entropy(logits, yb, reduction="sum").item()
        legal = torch.cat([xb[:, LEGAL_PLANE].flatten(1), torch.ones(xb.shape[0], 1, device=device)], 1)
        masked = logits.masked_fill(legal == 0, -1e9)
        correct += (masked.argmax(1) == yb).sum().item()
        top5 += (masked.topk(5, dim=1).indices == yb.unsqueeze(1)).any(1).sum().item()
    model.train()
    n = max(1, xs.shape[0])
    return correct / n, top5 / n, loss / n


def folded(conv, bn):
    """A convolution and the batch norm after it as one convolution."""
    scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
    w = conv.weight * scale.view(-1, 1, 1, 1)
    b = bn.bias - bn.running_mean * scale
    return w.detach().double(), b.detach().double()


def folded_tensors(model):
    """The weights in the engine's order, batch norm folded, float64."""
    out = list(folded(model.stem, model.stem_bn))
    for block in model.blocks:
        out += folded(block.conv1, block.bn1)
        out += folded(block.conv2, block.bn2)
    out += [model.head.weight.detach().double().flatten(), model.head.bias.detach().double()]
    out += [model.pass_fc.weight.detach().double().flatten(), model.pass_fc.bias.detach().double()]
    return out


def export(model, path):
    """The engine's weights file: magic, five u32 (format version, planes,
    channels, blocks, stem kernel), then every tensor of `folded_tensors`
    as little-endian f32 in PyTorch's (out, in, row, column) order."""
    with open(path, "wb") as f:
        f.write(MAGIC)
        f.write(struct.pack("<5I", FORMAT_VERSION, model.planes, model.channels, model.blocks_count, STEM_KERNEL))
        for t in folded_tensors(model):
            f.write(t.cpu().numpy().astype("<f4").tobytes())


def folded_forward(tensors, x, blocks):
    """The exported network's forward pass in float64, as the engine runs
    it: the golden logits."""
    it = iter(tensors)
    w, b = next(it), next(it)
    h = F.relu(F.conv2d(x, w, b, padding=STEM_KERNEL // 2))
    for _ in range(blocks):
        w1, b1, w2, b2 = next(it), next(it), next(it), next(it)
        r = F.relu(F.conv2d(h, w1, b1, padding=1))
        h = F.relu(h + F.conv2d(r, w2, b2, padding=1))
    hw, hb, pw, pb = next(it), next(it), next(it), next(it)
    points = (h * hw.view(1, -1, 1, 1)).sum(1).flatten(1) + hb
    pass_logit = h.mean(dim=(2, 3)) @ pw + pb
    return torch.cat([points, pass_logit.unsqueeze(1)], 1)


def golden_planes(path, size, planes, positions):
    """The golden positions of a planes folder that it holds (their
    indices) and their planes in float64, as both training scripts feed
    them to the trained model."""
    x, _ = load_split(path, "train", size, planes)
    chosen = [i for i in positions if i < x.shape[0]]
    return chosen, unpack(torch.from_numpy(x[chosen]), size, planes).double()


@torch.no_grad()
def golden(model, path, size, planes, positions):
    """The logits of chosen positions of a planes file (write_planes on a
    small game record): what the engine's forward pass must reproduce. They
    are the trained model's own (eval mode, float64), so that a mistake in
    the export shows; the exported weights' forward pass must agree."""
    if not path:
        return None
    chosen, xb = golden_planes(path, size, planes, positions)
    model = model.cpu().double().eval()
    logits = model(xb)
    tensors = [t.cpu() for t in folded_tensors(model)]
    model.float()
    exported = folded_forward(tensors, xb, model.blocks_count)
    difference = (exported - logits).abs().max().item()
    if not difference <= 1e-4 + 1e-6 * logits.abs().max().item():
        sys.exit(f"the exported weights' logits differ from the model's by {difference:.2e}")
    return {"positions": chosen, "logits": [[round(v, 6) for v in row] for row in logits.tolist()]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, help="write_planes' output folder")
    ap.add_argument("--out", required=True, help="OUT of OUT.bin, OUT.json, OUT.pt")
    ap.add_argument("--blocks", type=int, default=6)
    ap.add_argument("--channels", type=int, default=64)
    ap.add_argument("--minutes", type=float, default=8.0, help="training time, measurement included (with --steps: a limit only)")
    ap.add_argument("--steps", type=int, default=None, help="the run's length in batches: the learning rate follows it and the held-out sample is measured every --eval-steps, so that a rerun repeats it; without it the run is timed by --minutes")
    ap.add_argument("--eval-steps", type=int, default=None, help="with --steps: batches between measures (default a twentieth of the run)")
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--lr", type=float, default=0.1, help="peak learning rate")
    ap.add_argument("--weight-decay", type=float, default=1e-4)
    ap.add_argument("--eval-every", type=float, default=60.0, help="seconds")
    ap.add_argument("--eval-positions", type=int, default=50000)
    ap.add_argument("--max-train", type=int, default=None, help="use at most this many taught positions")
    ap.add_argument("--golden", default=None, help="a write_planes folder (no held-out split) of golden positions")
    ap.add_argument("--golden-positions", default="0,1,20,60,120,200")
    ap.add_argument("--resume", default=None, help="a checkpoint OUT.pt to start from")
    ap.add_argument("--lean-checkpoint", action="store_true", help="OUT.pt without the optimizer's momentum (half the size: a lent machine returns files of at most 16 MiB; a run resumed from it starts the momentum afresh)")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    device = torch.device(args.device)
    if device.type == "cuda":
        torch.backends.cudnn.benchmark = True
    meta = json.load(open(os.path.join(args.data, "meta.json")))
    size, planes = meta["size"], meta["planes"]
    start = time.time()
    log = lambda msg: print(f"[{args.out} {time.time() - start:7.1f}s] {msg}", flush=True)

    xtr, ytr = load_split(args.data, "train", size, planes, args.max_train)
    xho, yho = load_split(args.data, "held", size, planes)
    log(f"{xtr.shape[0]} taught positions, {xho.shape[0]} held out, {size}x{size}, {planes} planes")
    xtr = torch.from_numpy(xtr).to(device)
    ytr = torch.from_numpy(ytr).to(device)
    xho, yho = torch.from_numpy(xho), torch.from_numpy(yho)
    # A fixed sample of the held-out positions for the running measure.
    g = torch.Generator().manual_seed(7)
    sample = torch.randperm(xho.shape[0], generator=g)[: args.eval_positions]
    xs, ys = xho[sample], yho[sample]

    model = PolicyNet(planes, args.blocks, args.channels).to(device).to(memory_format=torch.channels_last)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, nesterov=True, weight_decay=args.weight_decay)
    steps_done = 0
    if args.resume:
        ck = torch.load(args.resume, map_location=device)
        model.load_state_dict(ck["model"])
        if "opt" in ck:
            opt.load_state_dict(ck["opt"])
        steps_done = ck.get("steps", 0)
        log(f"resumed from {args.resume} after {steps_done} steps")
    params = sum(p.numel() for p in model.parameters())
    log(f"{args.blocks} blocks x {args.channels} channels, {params} parameters")

    budget = args.minutes * 60.0
    t0 = time.time()
    last_eval = t0
    best = (-1.0, None)
    history = []
    n = xtr.shape[0]
    perm = torch.randperm(n, device=device)
    cursor = 0
    step = 0
    seen = 0
    # Warm-up: the first 3% of the time (none when resuming).
    warm = 0.0 if args.resume else 0.03
    eval_steps = args.eval_steps or max(1, (args.steps or 0) // 20)
    while True:
        elapsed = time.time() - t0
        if args.steps:
            frac = step / args.steps
            if step >= args.steps or elapsed >= budget:
                break
        else:
            frac = elapsed / budget
            if frac >= 1.0:
                break
        if frac < warm:
            lr = args.lr * max(0.05, frac / warm)
        else:
            lr = args.lr * 0.5 * (1 + math.cos(math.pi * (frac - warm) / (1 - warm)))
        for group in opt.param_groups:
            group["lr"] = lr
        if cursor + args.batch > n:
            perm = torch.randperm(n, device=device)
            cursor = 0
        idx = perm[cursor : cursor + args.batch]
        cursor += args.batch
        xb = unpack(xtr[idx], size, planes)
        xb, yb = augment(xb, ytr[idx], size)
        xb = xb.contiguous(memory_format=torch.channels_last)
        with torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=device.type == "cuda"):
            logits = model(xb)
        loss = F.cross_entropy(logits.float(), yb)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        step += 1
        seen += xb.shape[0]
        due = step % eval_steps == 0 if args.steps else time.time() - last_eval >= args.eval_every
        if due:
            last_eval = time.time()
            top1, top5, held_loss = measure(model, xs, ys, size, planes, device)
            history.append({"seconds": round(last_eval - t0), "positions": seen, "lr": lr, "top1": top1, "top5": top5, "loss": held_loss})
            log(f"step {step} positions {seen} ({seen / max(1, n):.2f} epochs) lr {lr:.4f} train loss {loss.item():.3f} held top1 {top1:.4f} top5 {top5:.4f} loss {held_loss:.3f}")
            if top1 > best[0]:
                best = (top1, {k: v.detach().clone() for k, v in model.state_dict().items()})
    top1, top5, held_loss = measure(model, xs, ys, size, planes, device)
    history.append({"seconds": round(time.time() - t0), "positions": seen, "lr": 0.0, "top1": top1, "top5": top5, "loss": held_loss})
    log(f"end: step {step} positions {seen} held top1 {top1:.4f}")
    if top1 >= best[0]:
        best = (top1, {k: v.detach().clone() for k, v in model.state_dict().items()})
    model.load_state_dict(best[1])
    checkpoint = {"model": model.state_dict(), "steps": steps_done + step}
    if not args.lean_checkpoint:
        checkpoint["opt"] = opt.state_dict()
    torch.save(checkpoint, args.out + ".pt")
    top1, top5, held_loss = measure(model, xho, yho, size, planes, device)
    log(f"best on all {xho.shape[0]} held-out positions: top1 {top1:.4f} top5 {top5:.4f} loss {held_loss:.3f}")
    model.eval()
    export(model, args.out + ".bin")
    positions = [int(p) for p in args.golden_positions.split(",") if p]
    summary = {
        "blocks": args.blocks,
        "channels": args.channels,
        "planes": planes,
        "parameters": params,
        "taught_positions": n,
        "held_out_positions": int(xho.shape[0]),
        "positions_trained": seen,
        "steps": step,
        "minutes": args.minutes,
        "steps_asked": args.steps,
        "batch": args.batch,
        "lr": args.lr,
        "weight_decay": args.weight_decay,
        "held_out": {"top1": top1, "top5": top5, "loss": held_loss},
        "history": history,
        "device": str(device) + (f" ({torch.cuda.get_device_name()})" if device.type == "cuda" else ""),
        "torch": torch.__version__,
        "golden": golden(model, args.golden, size, planes, positions),
    }
    with open(args.out + ".json", "w") as f:
        json.dump(summary, f, indent=1)
    log(f"wrote {args.out}.bin, .json, .pt")


if __name__ == "__main__":
    sys.exit(main())
