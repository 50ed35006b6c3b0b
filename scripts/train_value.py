#!/usr/bin/env python3
"""Trains hane's value head (the side to move's chance of winning) and
exports the network in version 2 of the engine's weights format.

Two modes, both reading folders that examples/write_planes wrote with
`--results` (the value bytes, `*.val`, and move numbers, `*.num`, beside
the planes):

  head: the trunk and policy of an exported network (data/policy-net.bin)
        stay as they are; only a value head is trained on them. The trunk's
        output for every position is computed once (a random one of the 8
        symmetries each) and kept as float16 in `--cache`, then the head
        trains for many epochs on it, stopping when the log loss on
        validation games (the last `--val-fraction` of the taught
        positions, whole games but one) stops falling. Made for a CPU and a
        few positions a game (write_planes --per-game 2):

    python3 scripts/train_value.py --mode head --data VALUE_PLANES \\
        --init data/policy-net.bin --out OUT --golden GOLDEN_PLANES

  joint: policy and value together from scratch, or from `--init` (a
        weights file of version 1 or 2, or a checkpoint .pt of this script
        or of train_policy.py): one trunk, loss = policy cross entropy x
        `--policy-weight` + value log loss x `--value-weight`, the value
        counted on a random `--value-fraction` of each batch (few positions
        a game an epoch: the positions of one game share one result, and
        all of them would be learnt by heart), the 8 symmetries at random,
        SGD with Nesterov momentum, warm-up then cosine over `--steps`
        steps (`--minutes` only stops it early), the held-out loss measured
        every `--eval-every` steps and the best weights kept. From a weights
        file, whose batch norm is folded in, the batch norms are first given
        the statistics of 1,024 taught positions (the network's function
        unchanged): the folded network alone diverged at a rate of 0.01.
        Made for a GPU and all positions (write_planes with no --per-game):

    python3 scripts/train_value.py --mode joint --data PLANES --out OUT \\
        --steps 12000 --lr 0.02 --golden GOLDEN_PLANES --init data/policy-net.bin

Both write OUT.bin (the weights, version 2), OUT.json (the measures, and
`golden`: the trained model's own policy logits and value logits, in
float64 and eval mode, on the `--golden` positions; scripts/
golden_from_training.py turns it into the engine's golden file), OUT.pt (a
checkpoint). The exported file is read back and run by a float64 forward
pass written from the format alone, which must match the model's own
outputs (1e-4): an export mistake stops the script.

The value head (fixed: the engine implements exactly this): from the
trunk's output (C channels, after the last block's ReLU), a 1x1
convolution to V channels with bias (batch norm folded in at export),
ReLU; the mean over the board's points of each channel, then the max of
each (2V numbers); a fully connected layer to H with bias, ReLU; one to 1
with bias: the value logit, sigmoid of which is the side to move's chance.

Weights format version 2: the 8 bytes HANEPOL1, seven little-endian u32
(format version 2, input planes, channels, residual blocks, the stem's
kernel side, V, H; V = 0: no value head, H = 0), then the tensors of
version 1 as little-endian f32 in PyTorch's (out, in, row, column) order
(stem weights and bias; each block's two convolutions, weights and bias;
the policy's per-channel weights and bias; the pass logit's per-channel
weights and bias), then, when V > 0, the value convolution's weights
(V x C) and bias (V), FC1's weights (H x 2V: a row per output, the inputs
[means..., maxes...]) and bias (H), FC2's weights (H) and bias (1).

Needs PyTorch and numpy (scripts/requirements.txt). Seeds are fixed
(`--seed`); on a CPU keep `--threads` low on a shared machine.
"""

import argparse
import hashlib
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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_policy import LEGAL_PLANE, MAGIC, STEM_KERNEL, PolicyNet, augment, folded, golden_planes, load_split, symmetry, unpack  # noqa: E402

FORMAT_VERSION = 2
VALUE_UNKNOWN = 255
# Game phases for the share of winners predicted correctly: moves [lo, hi).
PHASES = [(0, 50), (50, 100), (100, 150), (150, 200), (200, 10**6)]


class ValueHead(nn.Module):
    """1x1 convolution (batch norm), ReLU, [mean, max] over the points, FC,
    ReLU, FC: the value logit."""

    def __init__(self, channels, value_channels, hidden):
        super().__init__()
        self.value_channels, self.hidden = value_channels, hidden
        self.conv = nn.Conv2d(channels, value_channels, 1, bias=False)
        self.bn = nn.BatchNorm2d(value_channels)
        self.fc1 = nn.Linear(2 * value_channels, hidden)
        self.fc2 = nn.Linear(hidden, 1)

    def forward(self, trunk):
        v = F.relu(self.bn(self.conv(trunk)))
        pooled = torch.cat([v.mean(dim=(2, 3)), v.amax(dim=(2, 3))], dim=1)
        return self.fc2(F.relu(self.fc1(pooled))).squeeze(1)

    def folded_tensors(self):
        w, b = folded(self.conv, self.bn)
        d = lambda t: t.detach().double()
        return [w.flatten(), b, d(self.fc1.weight).flatten(), d(self.fc1.bias), d(self.fc2.weight).flatten(), d(self.fc2.bias)]


class FoldedNet(nn.Module):
    """The trunk and policy of an exported network as the file holds them:
    convolutions with biases, no batch norm (it is folded in)."""

    def __init__(self, planes, channels, blocks, kernel):
        super().__init__()
        self.planes, self.channels, self.blocks_count, self.kernel = planes, channels, blocks, kernel
        self.stem = nn.Conv2d(planes, channels, kernel, padding=kernel // 2)
        self.blocks = nn.ModuleList(
            nn.ModuleList([nn.Conv2d(channels, channels, 3, padding=1), nn.Conv2d(channels, channels, 3, padding=1)]) for _ in range(blocks)
        )
        self.head = nn.Conv2d(channels, 1, 1)
        self.pass_fc = nn.Linear(channels, 1)

    def trunk(self, x):
        h = F.relu(self.stem(x))
        for c1, c2 in self.blocks:
            h = F.relu(h + c2(F.relu(c1(h))))
        return h

    def policy(self, h):
        return torch.cat([self.head(h).flatten(1), self.pass_fc(h.mean(dim=(2, 3)))], dim=1)

    def ordered(self):
        """The parameters in the file's order."""
        out = [self.stem.weight, self.stem.bias]
        for c1, c2 in self.blocks:
            out += [c1.weight, c1.bias, c2.weight, c2.bias]
        return out + [self.head.weight, self.head.bias, self.pass_fc.weight, self.pass_fc.bias]

    def folded_tensors(self):
        out = [t.detach().double() for t in self.ordered()]
        # The policy's and the pass logit's weights are one per channel.
        return out[:-4] + [t.flatten() for t in out[-4:]]


class JointNet(nn.Module):
    """train_policy.py's network (batch norm) with a value head on its trunk."""

    def __init__(self, planes, blocks, channels, value_channels, hidden):
        super().__init__()
        self.net = PolicyNet(planes, blocks, channels)
        self.value = ValueHead(channels, value_channels, hidden)
        self.planes, self.channels, self.blocks_count, self.kernel = planes, channels, blocks, STEM_KERNEL

    def trunk(self, x):
        h = F.relu(self.net.stem_bn(self.net.stem(x)))
        for block in self.net.blocks:
            h = block(h)
        return h

    def policy(self, h):
        return torch.cat([self.net.head(h).flatten(1), self.net.pass_fc(h.mean(dim=(2, 3)))], dim=1)

    def forward(self, x):
        h = self.trunk(x)
        return self.policy(h), self.value(h)

    def folded_tensors(self):
        net = self.net
        out = list(folded(net.stem, net.stem_bn))
        for block in net.blocks:
            out += folded(block.conv1, block.bn1)
            out += folded(block.conv2, block.bn2)
        d = lambda t: t.detach().double()
        return out + [d(net.head.weight).flatten(), d(net.head.bias), d(net.pass_fc.weight).flatten(), d(net.pass_fc.bias)]


class HeadModel(nn.Module):
    """Mode head: a FoldedNet and a value head, one forward as JointNet's."""

    def __init__(self, base, head):
        super().__init__()
        self.base, self.value = base, head
        self.planes, self.channels, self.blocks_count, self.kernel = base.planes, base.channels, base.blocks_count, base.kernel

    def forward(self, x):
        h = self.base.trunk(x)
        return self.base.policy(h), self.value(h)

    def folded_tensors(self):
        return self.base.folded_tensors()


# --- the weights file -------------------------------------------------------


def read_weights(path):
    """(header dict, the f32 values after it) of a version 1, 2 or 3 file
    (version 3: scripts/train_ownership.py's, an ownership head after the
    value head; its channels O in the header's eighth word)."""
    data = open(path, "rb").read()
    if data[:8] != MAGIC:
        sys.exit(f"{path}: not a hane weights file")
    version = struct.unpack_from("<I", data, 8)[0]
    if version == 1:
        _, planes, channels, blocks, kernel = struct.unpack_from("<5I", data, 8)
        v = h = 0
        offset = 8 + 5 * 4
    elif version == 2:
        _, planes, channels, blocks, kernel, v, h = struct.unpack_from("<7I", data, 8)
        offset = 8 + 7 * 4
    elif version == 3:
        _, planes, channels, blocks, kernel, v, h, o = struct.unpack_from("<8I", data, 8)
        offset = 8 + 8 * 4
    else:
        sys.exit(f"{path}: format version {version}, this script reads 1 to 3")
    values = np.frombuffer(data, dtype="<f4", offset=offset).astype(np.float64)
    header = {"version": version, "planes": planes, "channels": channels, "blocks": blocks, "kernel": kernel, "value_channels": v, "hidden": h,
              "ownership_channels": o if version == 3 else 0}
    return header, values


def split_tensors(header, values):
    """The file's values cut into its tensors, in order, float64 torch."""
    p, c, b, k, v, h = (header[x] for x in ("planes", "channels", "blocks", "kernel", "value_channels", "hidden"))
    shapes = [(c, p, k, k), (c,)]
    for _ in range(b):
        shapes += [(c, c, 3, 3), (c,), (c, c, 3, 3), (c,)]
    shapes += [(c,), (1,), (c,), (1,)]
    if v:
        shapes += [(v, c), (v,), (h, 2 * v), (h,), (h,), (1,)]
    o = header.get("ownership_channels", 0)
    if o:
        shapes += [(o, c, 3, 3), (o,), (o,), (1,)]
    out, at = [], 0
    for shape in shapes:
        n = int(np.prod(shape))
        out.append(torch.from_numpy(values[at : at + n].copy()).view(shape))
        at += n
    if at != values.size:
        sys.exit(f"the file holds {values.size} values, its header says {at}")
    return out


def export(model, head, path):
    """Version 2: magic, seven u32, the trunk and policy, the value head."""
    with open(path, "wb") as f:
        f.write(MAGIC)
        f.write(struct.pack("<7I", FORMAT_VERSION, model.planes, model.channels, model.blocks_count, model.kernel, head.value_channels, head.hidden))
        for t in model.folded_tensors() + head.folded_tensors():
            f.write(t.cpu().numpy().astype("<f4").tobytes())


def file_forward(tensors, header, x):
    """A forward pass written from the file format alone, float64: what the
    engine computes. (policy logits with pass, value logit)."""
    it = iter(tensors)
    k = header["kernel"]
    h = F.relu(F.conv2d(x, next(it), next(it), padding=k // 2))
    for _ in range(header["blocks"]):
        w1, b1, w2, b2 = next(it), next(it), next(it), next(it)
        h = F.relu(h + F.conv2d(F.relu(F.conv2d(h, w1, b1, padding=1)), w2, b2, padding=1))
    hw, hb, pw, pb = next(it), next(it), next(it), next(it)
    points = (h * hw.view(1, -1, 1, 1)).sum(1).flatten(1) + hb
    logits = torch.cat([points, (h.mean(dim=(2, 3)) @ pw + pb).unsqueeze(1)], 1)
    if not header["value_channels"]:
        return logits, None
    vw, vb, w1, b1, w2, b2 = (next(it) for _ in range(6))
    v = F.relu(torch.einsum("vc,nchw->nvhw", vw, h) + vb.view(1, -1, 1, 1))
    pooled = torch.cat([v.mean(dim=(2, 3)), v.amax(dim=(2, 3))], 1)
    return logits, F.relu(pooled @ w1.T + b1) @ w2 + b2


def load_folded_into(model, tensors):
    """Weights of a file (batch norm folded) into a JointNet: each batch
    norm made the identity plus the bias, so that the model in eval mode
    computes exactly what the file does."""
    it = iter(tensors)

    def conv_bn(conv, bn):
        conv.weight.data.copy_(next(it))
        bn.weight.data.fill_(1.0)
        bn.bias.data.copy_(next(it))
        bn.running_mean.zero_()
        bn.running_var.fill_(1.0 - bn.eps)

    net = model.net
    conv_bn(net.stem, net.stem_bn)
    for block in net.blocks:
        conv_bn(block.conv1, block.bn1)
        conv_bn(block.conv2, block.bn2)
    net.head.weight.data.copy_(next(it).view_as(net.head.weight))
    net.head.bias.data.copy_(next(it))
    net.pass_fc.weight.data.copy_(next(it).view_as(net.pass_fc.weight))
    net.pass_fc.bias.data.copy_(next(it))
    rest = list(it)
    head = model.value
    if rest and rest[0].shape == (head.value_channels, model.channels) and rest[2].shape == head.fc1.weight.shape:
        head.conv.weight.data.copy_(rest[0].view_as(head.conv.weight))
        head.bn.weight.data.fill_(1.0)
        head.bn.bias.data.copy_(rest[1])
        head.bn.running_mean.zero_()
        head.bn.running_var.fill_(1.0 - head.bn.eps)
        head.fc1.weight.data.copy_(rest[2])
        head.fc1.bias.data.copy_(rest[3])
        head.fc2.weight.data.copy_(rest[4].view_as(head.fc2.weight))
        head.fc2.bias.data.copy_(rest[5])
        return "trunk, policy and value"
    return "trunk and policy (a new value head)"


# --- data and measures ------------------------------------------------------


def load_values(data, split, limit=None):
    """The value bytes and move numbers of a split, in load_split's order."""
    import glob

    bins = sorted(glob.glob(os.path.join(data, f"{split}-*.bin")))
    vals, nums = [], []
    for b in bins:
        if not os.path.exists(b[:-4] + ".val"):
            sys.exit(f"{b[:-4]}.val is missing: write the planes with write_planes --results")
        vals.append(np.fromfile(b[:-4] + ".val", dtype=np.uint8))
        nums.append(np.fromfile(b[:-4] + ".num", dtype="<u2").astype(np.int64))
    v = np.concatenate(vals) if vals else np.zeros((0,), np.uint8)
    n = np.concatenate(nums) if nums else np.zeros((0,), np.int64)
    if limit is not None:
        v, n = v[:limit], n[:limit]
    return v, n


def value_measures(logits, labels, numbers):
    """Mean squared error of sigmoid(logit) against the result, log loss,
    and the share of winners predicted correctly, overall and by phase."""
    logits = torch.as_tensor(logits, dtype=torch.float64)
    y = torch.as_tensor(labels, dtype=torch.float64)
    numbers = torch.as_tensor(numbers)
    p = torch.sigmoid(logits)
    right = ((p > 0.5).double() == y).double()
    out = {
        "positions": int(y.numel()),
        "mse": float(((p - y) ** 2).mean()),
        "log_loss": float(F.binary_cross_entropy_with_logits(logits, y)),
        "accuracy": float(right.mean()),
        "by_phase": {},
    }
    for lo, hi in PHASES:
        m = (numbers >= lo) & (numbers < hi)
        name = f"{lo}-{hi - 1}" if hi < 10**6 else f"{lo}+"
        out["by_phase"][name] = {"positions": int(m.sum()), "accuracy": float(right[m].mean()) if m.any() else None, "mse": float(((p[m] - y[m]) ** 2).mean()) if m.any() else None}
    return out


def describe(name, m):
    phases = ", ".join(f"{k}: {v['accuracy']:.3f} ({v['positions']})" for k, v in m["by_phase"].items() if v["accuracy"] is not None)
    return f"{name}: {m['positions']} positions, MSE {m['mse']:.4f}, log loss {m['log_loss']:.4f}, right {m['accuracy']:.3f}; by moves {phases}"


@torch.no_grad()
def golden(model, path, size, planes, positions):
    """The trained model's own outputs (eval mode, float64) on chosen
    positions of a planes folder: what the engine must reproduce."""
    if not path:
        return None
    chosen, xb = golden_planes(path, size, planes, positions)
    model = model.cpu().double().eval()
    logits, values = model(xb)
    model.float()
    return {
        "positions": chosen,
        "logits": [[round(v, 6) for v in row] for row in logits.tolist()],
        "values": [round(v, 6) for v in values.tolist()],
        "inputs": xb,
    }


def check_export(path, gold):
    """Reads the exported file back and runs it as the engine would: its
    outputs must be the trained model's (the golden ones)."""
    header, values = read_weights(path)
    logits, value = file_forward(split_tensors(header, values), header, gold["inputs"])
    want_logits = torch.tensor(gold["logits"], dtype=torch.float64)
    want_values = torch.tensor(gold["values"], dtype=torch.float64)
    dl = (logits - want_logits).abs().max().item()
    dv = (value - want_values).abs().max().item()
    # The engine's test allows 1e-4; the f32 rounding of the weights adds
    # to that in proportion to the outputs (an untrained network's logits
    # run into the thousands).
    scale = max(want_logits.abs().max().item(), want_values.abs().max().item())
    if not max(dl, dv) <= 1e-4 + 1e-6 * scale:  # NaN fails too
        sys.exit(f"{path}: the file's forward pass differs from the model's by {dl:.2e} (policy), {dv:.2e} (value)")
    return {"policy": dl, "value": dv}


# --- mode head ----------------------------------------------------------------


def base_from_file(path):
    header, values = read_weights(path)
    tensors = split_tensors(header, values)
    base = FoldedNet(header["planes"], header["channels"], header["blocks"], header["kernel"])
    with torch.no_grad():
        for p, t in zip(base.ordered(), tensors):
            p.copy_(t.view_as(p))
    return base.eval(), header


@torch.no_grad()
def features(base, x, size, planes, cache, name, random_symmetry, seed, log, batch=256):
    """The trunk's output of every position (N, C, size, size) as float16 in
    a file of `cache`, computed once: reused while the file is complete."""
    c = base.channels
    path = os.path.join(cache, f"{name}.f16")
    done = path + ".done"
    shape = (x.shape[0], c, size, size)
    if os.path.exists(done) and json.load(open(done)).get("shape") == list(shape):
        return np.memmap(path, dtype=np.float16, mode="r", shape=shape)
    out = np.memmap(path, dtype=np.float16, mode="w+", shape=shape)
    g = torch.Generator().manual_seed(seed)
    t0 = time.time()
    for i in range(0, x.shape[0], batch):
        xb = unpack(torch.from_numpy(x[i : i + batch]), size, planes)
        if random_symmetry:
            s = torch.randint(0, 8, (xb.shape[0],), generator=g)
            for k in range(8):
                idx = (s == k).nonzero(as_tuple=True)[0]
                if idx.numel():
                    xb[idx] = symmetry(xb[idx], k)
        out[i : i + xb.shape[0]] = base.trunk(xb).numpy().astype(np.float16)
        if (i // batch) % 40 == 0:
            rate = (i + xb.shape[0]) / max(1e-9, time.time() - t0)
            log(f"{name}: {i + xb.shape[0]}/{x.shape[0]} positions, {rate:.0f}/s, {(x.shape[0] - i) / rate / 60:.1f} minutes left")
    out.flush()
    json.dump({"shape": list(shape)}, open(done, "w"))
    return np.memmap(path, dtype=np.float16, mode="r", shape=shape)


def head_logits(head, feats, index, batch=1024):
    head.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(index), batch):
            out.append(head(torch.from_numpy(np.asarray(feats[index[i : i + batch]], dtype=np.float32))))
    head.train()
    return torch.cat(out) if out else torch.zeros(0)


def fit_head(head, opt, args, fit, batch_loss, val_loss, log, per_epoch=None):
    """Trains `head` on the positions `fit` (shuffled each epoch, at most
    `per_epoch` of them, in batches of `args.batch` whose loss
    `batch_loss(indices)` gives) with `opt` on a cosine from `args.lr` over
    `args.epochs`, stopping after `args.patience` epochs without a lower
    `val_loss()`; leaves the best epoch's weights in `head` (eval mode).
    (history, best epoch)."""
    g = torch.Generator().manual_seed(args.seed)
    best = (float("inf"), None, -1)
    history = []
    t1 = time.time()
    for epoch in range(args.epochs):
        lr = args.lr * 0.5 * (1 + math.cos(math.pi * epoch / args.epochs))
        for group in opt.param_groups:
            group["lr"] = lr
        order = fit[torch.randperm(len(fit), generator=g).numpy()][:per_epoch]
        total = 0.0
        for i in range(0, len(order), args.batch):
            loss = batch_loss(np.sort(order[i : i + args.batch]))
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            total += loss.item() * min(args.batch, len(order) - i)
        loss = val_loss()
        history.append({"epoch": epoch + 1, "lr": lr, "train_loss": total / len(order), "val_loss": loss, "seconds": round(time.time() - t1)})
        log(f"epoch {epoch + 1} lr {lr:.5f} train loss {total / len(order):.4f} validation loss {loss:.4f}")
        if loss < best[0]:
            best = (loss, {k: v.detach().clone() for k, v in head.state_dict().items()}, epoch + 1)
        elif epoch + 1 - best[2] >= args.patience:
            log(f"no better for {args.patience} epochs: stopped")
            break
    head.load_state_dict(best[1])
    head.eval()
    log(f"kept epoch {best[2]} (validation loss {best[0]:.4f})")
    return history, best[2]


def run_head(args, log):
    base, header = base_from_file(args.init)
    meta = json.load(open(os.path.join(args.data, "meta.json")))
    size, planes = meta["size"], meta["planes"]
    if planes != header["planes"]:
        sys.exit(f"{args.init} reads {header['planes']} planes, {args.data} holds {planes}")
    xtr, _ = load_split(args.data, "train", size, planes, args.max_train)
    vtr, ntr = load_values(args.data, "train", args.max_train)
    xho, _ = load_split(args.data, "held", size, planes)
    vho, nho = load_values(args.data, "held")
    known_tr = np.nonzero(vtr != VALUE_UNKNOWN)[0]
    known_ho = np.nonzero(vho != VALUE_UNKNOWN)[0]
    log(f"{len(known_tr)} taught positions with a result (of {len(vtr)}), {len(known_ho)} held out (of {len(vho)})")
    # Validation: the last positions, in the order written: whole games
    # (but the one at the boundary) that the head never trains on.
    cut = int(len(known_tr) * (1 - args.val_fraction))
    fit, val = known_tr[:cut], known_tr[cut:]
    os.makedirs(args.cache, exist_ok=True)
    t0 = time.time()
    ftr = features(base, xtr, size, planes, args.cache, "train", True, args.seed, log)
    fho = features(base, xho, size, planes, args.cache, "held", False, args.seed, log)
    feature_seconds = time.time() - t0
    log(f"trunk features ready ({feature_seconds:.0f} s)")
    if args.features_only:
        return None

    head = ValueHead(base.channels, args.value_channels, args.hidden)
    opt = torch.optim.AdamW(head.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    ytr = torch.from_numpy(vtr.astype(np.float32))
    t1 = time.time()

    def batch_loss(idx):
        xb = torch.from_numpy(np.asarray(ftr[idx], dtype=np.float32))
        return F.binary_cross_entropy_with_logits(head(xb), ytr[idx])

    def val_loss():
        return F.binary_cross_entropy_with_logits(head_logits(head, ftr, val), ytr[val]).item()

    history, best_epoch = fit_head(head, opt, args, fit, batch_loss, val_loss, log)
    measures = {
        "taught": value_measures(head_logits(head, ftr, fit), vtr[fit], ntr[fit]),
        "validation": value_measures(head_logits(head, ftr, val), vtr[val], ntr[val]),
        "held_out": value_measures(head_logits(head, fho, known_ho), vho[known_ho], nho[known_ho]),
    }
    for k, m in measures.items():
        log(describe(k, m))
    model = HeadModel(base, head).eval()
    extra = {
        "init": args.init,
        "init_sha256": hashlib.sha256(open(args.init, "rb").read()).hexdigest(),
        "positions": {"fit": len(fit), "validation": len(val), "held_out": len(known_ho)},
        "epochs_run": len(history),
        "best_epoch": best_epoch,
        "feature_seconds": round(feature_seconds),
        "head_seconds": round(time.time() - t1),
        "history": history,
        "value": measures,
    }
    torch.save({"head": head.state_dict(), "init": args.init, "value_channels": args.value_channels, "hidden": args.hidden}, args.out + ".pt")
    return model, head, size, planes, extra


# --- mode joint ---------------------------------------------------------------


@torch.no_grad()
def joint_measure(model, xs, ys, vs, ns, size, planes, device, batch=2048):
    """Policy top-1 (legal moves and pass) and loss; the value measures."""
    model.eval()
    correct, loss = 0, 0.0
    vlog = []
    for i in range(0, xs.shape[0], batch):
        xb = unpack(xs[i : i + batch].to(device), size, planes)
        yb = ys[i : i + batch].to(device)
        with torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=device.type == "cuda"):
            logits, value = model(xb)
        logits = logits.float()
        loss += F.cross_entropy(logits, yb, reduction="sum").item()
        legal = torch.cat([xb[:, LEGAL_PLANE].flatten(1), torch.ones(xb.shape[0], 1, device=device)], 1)
        correct += (logits.masked_fill(legal == 0, -1e9).argmax(1) == yb).sum().item()
        vlog.append(value.float().cpu())
    n = max(1, xs.shape[0])
    v = torch.cat(vlog) if vlog else torch.zeros(0)
    known = vs != VALUE_UNKNOWN
    measures = value_measures(v[known], vs[known].float(), ns[known]) if known.any() else None
    return {"top1": correct / n, "policy_loss": loss / n, "value": measures}


@torch.no_grad()
def calibrate_norms(model, x):
    """Gives the batch norms of a JointNet loaded from a file (identity
    norms, the file's biases) the statistics of real positions `x`, with
    scale and shift set so that the network still computes exactly the
    file's function in eval mode, and nearly so in training mode, where a
    batch's own statistics are used: training then moves from the file's
    network rather than from a scrambled one, and keeps batch norm's
    tolerance of a high learning rate (without it, the folded network
    diverged within three steps at 0.01)."""
    pairs = [(model.net.stem, model.net.stem_bn), (model.value.conv, model.value.bn)]
    for block in model.net.blocks:
        pairs += [(block.conv1, block.bn1), (block.conv2, block.bn2)]
    stats = {}
    hooks = [conv.register_forward_hook(lambda m, i, out, bn=bn: stats.__setitem__(bn, (out.mean(dim=(0, 2, 3)), out.var(dim=(0, 2, 3))))) for conv, bn in pairs]
    model.eval()
    model(x)
    for h in hooks:
        h.remove()
    for _, bn in pairs:
        mean, var = stats[bn]
        bn.running_mean.copy_(mean)
        bn.running_var.copy_(var)
        bn.weight.copy_(torch.sqrt(var + bn.eps))
        bn.bias.add_(mean)


def run_joint(args, log):
    device = torch.device(args.device)
    if device.type == "cuda":
        torch.backends.cudnn.benchmark = True
    meta = json.load(open(os.path.join(args.data, "meta.json")))
    size, planes = meta["size"], meta["planes"]
    xtr, ytr = load_split(args.data, "train", size, planes, args.max_train)
    vtr, _ = load_values(args.data, "train", args.max_train)
    xho, yho = load_split(args.data, "held", size, planes)
    vho, nho = load_values(args.data, "held")
    log(f"{xtr.shape[0]} taught positions ({int((vtr != VALUE_UNKNOWN).sum())} with a result), {xho.shape[0]} held out")
    xtr, ytr, vtr = (torch.from_numpy(a).to(device) for a in (xtr, ytr, vtr))
    xho, yho, vho, nho = (torch.from_numpy(a) for a in (xho, yho, vho, nho))
    g = torch.Generator().manual_seed(7)
    sample = torch.randperm(xho.shape[0], generator=g)[: args.eval_positions]
    xs, ys, vs, ns = xho[sample], yho[sample], vho[sample], nho[sample]

    model = JointNet(planes, args.blocks, args.channels, args.value_channels, args.hidden)
    if args.init and args.init.endswith(".bin"):
        header, values = read_weights(args.init)
        if (header["planes"], header["blocks"], header["channels"]) != (planes, args.blocks, args.channels):
            sys.exit(f"{args.init} is {header['blocks']} blocks x {header['channels']}, not {args.blocks} x {args.channels}")
        log(f"from {args.init}: {load_folded_into(model, split_tensors(header, values))}")
    elif args.init:
        state = torch.load(args.init, map_location="cpu")["model"]
        if any(k.startswith("net.") for k in state):
            model.load_state_dict(state)
            log(f"from {args.init}: trunk, policy and value")
        else:
            model.net.load_state_dict(state)
            log(f"from {args.init} (train_policy.py): trunk and policy (a new value head)")
    if args.init and args.init.endswith(".bin"):
        calib = torch.randperm(xtr.shape[0], generator=torch.Generator().manual_seed(args.seed))[:1024].to(device)
        calibrate_norms(model.to(device), unpack(xtr[calib], size, planes))
        log("batch norms calibrated on 1024 taught positions")
    model = model.to(device).to(memory_format=torch.channels_last)
    model.train()
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, nesterov=True, weight_decay=args.weight_decay)
    params = sum(p.numel() for p in model.parameters())
    log(f"{args.blocks} blocks x {args.channels} channels, value {args.value_channels} -> {args.hidden}, {params} parameters")

    n = xtr.shape[0]
    gen = torch.Generator(device=device).manual_seed(args.seed)
    perm = torch.randperm(n, device=device, generator=gen)
    cursor, seen = 0, 0
    best = (float("inf"), None, 0)
    history = []
    warm = max(1, int(args.steps * 0.03))
    t0 = time.time()
    step = 0
    for step in range(1, args.steps + 1):
        if args.minutes and time.time() - t0 > args.minutes * 60:
            log(f"time limit reached at step {step - 1} of {args.steps}")
            step -= 1
            break
        if step <= warm and not args.init:
            lr = args.lr * max(0.05, step / warm)
        else:
            lr = args.lr * 0.5 * (1 + math.cos(math.pi * step / args.steps))
        for group in opt.param_groups:
            group["lr"] = lr
        if cursor + args.batch > n:
            perm = torch.randperm(n, device=device, generator=gen)
            cursor = 0
        idx = perm[cursor : cursor + args.batch]
        cursor += args.batch
        xb, yb = augment(unpack(xtr[idx], size, planes), ytr[idx], size)
        vb = vtr[idx]
        # The value is taught on a random few of the batch's positions.
        mask = (vb != VALUE_UNKNOWN) & (torch.rand(vb.shape[0], device=device, generator=gen) < args.value_fraction)
        with torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=device.type == "cuda"):
            logits, value = model(xb.contiguous(memory_format=torch.channels_last))
        policy_loss = F.cross_entropy(logits.float(), yb)
        value_loss = F.binary_cross_entropy_with_logits(value.float()[mask], vb[mask].float()) if mask.any() else value.sum() * 0.0
        loss = args.policy_weight * policy_loss + args.value_weight * value_loss
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        seen += xb.shape[0]
        if step % args.eval_every == 0 or step == args.steps:
            m = joint_measure(model, xs, ys, vs, ns, size, planes, device)
            model.train()
            vl = m["value"]["log_loss"] if m["value"] else 0.0
            score = args.policy_weight * m["policy_loss"] + args.value_weight * vl
            history.append({"step": step, "positions": seen, "lr": lr, "seconds": round(time.time() - t0), **{k: v for k, v in m.items() if k != "value"}, "value_log_loss": vl, "value_mse": m["value"]["mse"] if m["value"] else None})
            log(f"step {step}/{args.steps} positions {seen} ({seen / n:.2f} epochs) lr {lr:.4f} loss {policy_loss.item():.3f}+{value_loss.item():.3f} held top1 {m['top1']:.4f} policy {m['policy_loss']:.3f} value {vl:.4f}")
            if score < best[0]:
                best = (score, {k: v.detach().clone() for k, v in model.state_dict().items()}, step)
    if best[1] is not None:
        model.load_state_dict(best[1])
    log(f"kept step {best[2]}")
    # The model alone: --init reads nothing else, and without the
    # optimizer's momentum a 10 x 128 checkpoint stays under the 16 MiB a
    # lent machine's call brings back.
    torch.save({"model": model.state_dict(), "steps": step}, args.out + ".pt")
    final = joint_measure(model, xho, yho, vho, nho, size, planes, device)
    log(f"all {xho.shape[0]} held-out positions: top1 {final['top1']:.4f} policy loss {final['policy_loss']:.3f}")
    if final["value"]:
        log(describe("held_out", final["value"]))
    extra = {
        "init": args.init,
        "steps": step,
        "steps_asked": args.steps,
        "positions_trained": seen,
        "best_step": best[2],
        "held_out": {"top1": final["top1"], "loss": final["policy_loss"]},
        "value": {"held_out": final["value"]},
        "history": history,
        "device": str(device) + (f" ({torch.cuda.get_device_name()})" if device.type == "cuda" else ""),
    }
    model = model.cpu().float().eval()
    return model, model.value, size, planes, extra


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=["head", "joint"], required=True)
    ap.add_argument("--data", required=True, help="write_planes' output folder, written with --results")
    ap.add_argument("--out", required=True, help="OUT of OUT.bin, OUT.json, OUT.pt")
    ap.add_argument("--init", default=None, help="head: the weights file whose trunk is kept (required); joint: a weights file or checkpoint to start from")
    ap.add_argument("--value-channels", type=int, default=32, help="V")
    ap.add_argument("--hidden", type=int, default=64, help="H")
    ap.add_argument("--golden", default=None, help="a write_planes folder (no held-out split) of golden positions")
    ap.add_argument("--golden-positions", default="0,1,20,60,120,200")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1, help="CPU threads for PyTorch")
    ap.add_argument("--max-train", type=int, default=None, help="use at most this many taught positions")
    ap.add_argument("--lr", type=float, default=None, help="peak learning rate (head: 0.002, AdamW; joint: 0.1, SGD)")
    ap.add_argument("--weight-decay", type=float, default=1e-4)
    ap.add_argument("--batch", type=int, default=None, help="head: 256; joint: 1024")
    g = ap.add_argument_group("mode head")
    g.add_argument("--cache", default=None, help="where the trunk's features are kept (default OUT-features)")
    g.add_argument("--features-only", action="store_true", help="compute the features and stop")
    g.add_argument("--epochs", type=int, default=40)
    g.add_argument("--patience", type=int, default=6, help="epochs without a better validation loss before stopping")
    g.add_argument("--val-fraction", type=float, default=0.05)
    g = ap.add_argument_group("mode joint")
    g.add_argument("--blocks", type=int, default=6)
    g.add_argument("--channels", type=int, default=64)
    g.add_argument("--steps", type=int, default=12000, help="the run's length (the schedule is over these)")
    g.add_argument("--minutes", type=float, default=None, help="a time limit only: stops early, the schedule unchanged")
    g.add_argument("--policy-weight", type=float, default=1.0)
    g.add_argument("--value-weight", type=float, default=1.0)
    g.add_argument("--value-fraction", type=float, default=0.02, help="share of each batch the value is taught on")
    g.add_argument("--eval-every", type=int, default=1000, help="steps")
    g.add_argument("--eval-positions", type=int, default=50000)
    g.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args()
    if args.lr is None:
        args.lr = 0.002 if args.mode == "head" else 0.1
    if args.batch is None:
        args.batch = 256 if args.mode == "head" else 1024
    if args.cache is None:
        args.cache = args.out + "-features"

    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    torch.set_num_threads(args.threads)
    start = time.time()
    log = lambda msg: print(f"[{os.path.basename(args.out)} {time.time() - start:7.1f}s] {msg}", flush=True)
    if args.mode == "head":
        if not args.init:
            sys.exit("--mode head needs --init (the weights file whose trunk is kept)")
        result = run_head(args, log)
        if result is None:
            return 0
    else:
        result = run_joint(args, log)
    model, head, size, planes, extra = result
    export(model, head, args.out + ".bin")
    positions = [int(p) for p in args.golden_positions.split(",") if p]
    gold = golden(model, args.golden, size, planes, positions)
    if gold:
        extra["export_check_max_difference"] = check_export(args.out + ".bin", gold)
        log(f"exported file's forward pass against the model's: {extra['export_check_max_difference']}")
        del gold["inputs"]
    summary = {
        "mode": args.mode,
        "format_version": FORMAT_VERSION,
        "blocks": model.blocks_count,
        "channels": model.channels,
        "planes": planes,
        "value_channels": head.value_channels,
        "hidden": head.hidden,
        "seed": args.seed,
        "lr": args.lr,
        "batch": args.batch,
        "weight_decay": args.weight_decay,
        "data": os.path.abspath(args.data),
        "data_meta": json.load(open(os.path.join(args.data, "meta.json"))),
        "torch": torch.__version__,
        "numpy": np.__version__,
        "seconds": round(time.time() - start),
        **extra,
        "golden": gold,
    }
    if "held_out" not in summary:
        summary["held_out"] = {"value": extra["value"]["held_out"]}
    with open(args.out + ".json", "w") as f:
        json.dump(summary, f, indent=1)
    log(f"wrote {args.out}.bin, .json, .pt")
    return 0


if __name__ == "__main__":
    sys.exit(main())
