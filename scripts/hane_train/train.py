"""The one entry point: trains every head of hane_train.model.Net together
(policy, value, ownership) on a planes folder of examples/write_planes,
for a number of steps, seeded, resumable, and exports the engine's weights
file (version 6) with its golden file.

    PYTHONPATH=scripts python3 -m hane_train.train --data PLANES --out OUT \\
        --blocks 10 --channels 128 --steps 40000 --golden GOLDEN
    # later (another call, another session): on from the checkpoint
    PYTHONPATH=scripts python3 -m hane_train.train --data PLANES --out OUT2 \\
        --resume OUT.pt

Writes OUT.pt (the checkpoint), OUT.bin (the weights), OUT.json (the
measures, the configuration, the steps and positions so far and the data
slices they came from) and, with `--golden`, OUT-golden.json (what the
engine's test must reproduce: data/policy-net-golden.json when shipped).

Length. `--steps` is the schedule's length in batches of `--batch`: the
learning rate warms up over its first 3% (`--warmup`; from `--init` too)
and falls on a cosine to 0 at its end. A run stops at `--steps`, after
`--stop-after` steps of this call, or at `--minutes`, whichever is first,
and writes its checkpoint; `--resume` continues the schedule where it
stopped (the step count is in the checkpoint; `--steps` given again with
`--resume` lengthens or shortens the schedule). A checkpoint whose
schedule has ended (its rate at 0) resumed with `--steps` beyond its step
count, or with `--fit-schedule`, starts a new schedule there (its
`schedule_start`): a warm-up and a cosine of its own, so that the next
call's new data, heads and momentum start at a low rate rather than
midway down a cosine stretched over both. `--fit-schedule` with
`--minutes` times this call's first FIT_PROBE (300) steps and sets the
schedule's length to what the time limit allows, so that the rate reaches
0 when the time is up whatever the machine's pace (a lent GPU's call: the
whole of its minutes, none of it at a rate the schedule did not plan).

Komi. The network reads the komi (issue 56): one plane more than
write_planes writes, the komi for the side to move over 20 on the board's
points (planes.extra_inputs). `--init` from a komi-blind file (19 planes)
starts its komi plane's weights at 0.

Determinism. The batches and their random symmetries are functions of the
seed, the data slice and the step alone (an epoch's order is a permutation
seeded by seed and epoch), so a run resumed from a full checkpoint (with
the optimizer's momentum) computes what the run without the stop computes:
on a CPU with one thread, the same weights bit for bit.

Checkpoints. Full (default): weights, batch norm statistics and the
optimizer's momentum, float32. `--lean-checkpoint`: the weights and
statistics alone, in float16 (a 10 x 128 network: about 6 MB, under the
8 MB the issue allows to commit and the 16 MiB a lent machine brings
back); a run resumed from it starts the momentum afresh. Either holds the
step count, the positions trained, the configuration, and the data slice:
its name and fingerprint (planes.fingerprint) and the steps taken on it.
Resumed on the same slice, the batches go on where they stopped; on a new
slice (issue 56: each call the next slice of the corpus) they start at
that slice's beginning, and the checkpoint's list of slices grows.

Losses. Policy: cross entropy of the move played. Value: log loss of the
side to move's result, on a random `--value-fraction` (2%) of each batch's
positions with a known result (the positions of one game share one
result; all of them would be learnt by heart), weight `--value-weight`.
Komi-varied value (`--komi-vary`, 0.5): a share of the value's positions
whose game's final margin is known (planes.py, `.mar`) is taught at a komi
drawn for it (`drawn_komi`), its target who wins the final count at that
komi, and its policy loss left out (the move was played at the game's
komi). The games of the corpus were played at 6.5 and 7.5 alone: without
it the value learns nothing of the komi it reads, and a game at another
komi (a handicap game's 0.5, a test's hopeless 1000) reads as if at 7.5.
Reply: cross entropy of the opponent's move after the one played (where
the game went on), weight `--reply-weight` (0.15, KataGo's for its
opponent policy), on the positions the policy is taught on; a head the
weights file does not carry (model.py). A checkpoint from before it gets
the head afresh.
Score (`score_bins`, 723 by default; model.py): the value is read from the
distribution of the final margin, so the value's loss above is the log
loss of `win_logit` at the position's komi (or the drawn one), and where
the game's final margin is known, the same positions are also taught the
margin itself: cross entropy of the score logits against it (`margin_loss`),
weight `--score-weight` (0.02, KataGo's for its score distribution: at
0.25 the margin's loss, some 4.4 nats a position against the result's
0.65, took the head from the result, docs/network.md "The score head"). A checkpoint from before the score head
(its value's last layer one logit) gets that layer afresh, the rest of the
value head kept.
Ownership: binary cross entropy of (1 + tanh) / 2 against (1 + target) /
2 a point, averaged over the board, on the positions with a target (from
write_planes --ownership), weight `--ownership-weight`. A random one of the
8 symmetries a position, applied to its move and its ownership target.
Ownership's sum: where the final margin is known, the squared error of the
ownership's sum (the side to move's expected area less the opponent's)
against it, over 19 points, weight `--ownership-sum-weight` (0: off). The
per-point loss barely sees a bias of a hundredth of a point a point, which
summed over the board is the lead a client is shown where the network has
no score head: session 23's network, taught without it, read the side to
move's area some 4.5 points short, the empty board's lead at 7.5 -6.8
(docs/network.md, "The lead at the empty board"; sum_refit.py mends a
trained head with it, Adam, weight 0.5). Off by default: with a score head
the engine reads the lead from that head, and under SGD the sum's gradient
on each point is some ten times the per-point loss's (a 30-step CPU run
at 0.1 with it at 0.5 left the head saturated, every point one side's).
SGD with Nesterov momentum 0.9 and weight decay, bf16 autocast on a GPU.

Measures (every `--eval-every` steps on a fixed sample of `--eval-positions`
held-out positions, and at the end on all of them): policy top-1 among the
legal moves and pass (the engine weighs nothing else) and its loss; the
reply's top-1 (`reply_top1`, among every point and pass); the
value's MSE (sigmoid against the result), log loss and winners right, by
phase; the ownership loss, MSE a point and owners right (|target| > 0.5);
the value at each held-out position's drawn komi (`value_varied`: MSE and
winners right, where the margin is known); with a score head, the mean
|expected margin - final margin|, the same of the median (the engine's
lead) and the margin's loss (`score`, where the margin is known); the mean |ownership's sum - final margin| beside it
(`ownership_margin_off`). The weights exported are the
last step's (the schedule ends at a rate of 0).

`--value-only` trains the value head alone (with its score head: what a
checkpoint from before it lacks), the trunk and the other heads frozen,
their batch norms' statistics too: a new head fitted on a trained trunk
where a GPU is not to be had, each position costing the trunk's forward
pass alone. With it, `--value-fraction 1` teaches every position's value;
the trunk cannot learn the games' results by heart.

`--init FILE.bin` starts a new run from an exported network (the shipped
one, say): its trunk, policy and whichever heads it has and the sizes
match; each batch norm given the statistics of 1,024 taught positions with
the file's function kept (model.calibrate_norms).
"""

import argparse
import copy
import json
import math
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

from . import export, reference
from .model import SCORE_BINS, SCORE_KEYS, Net, calibrate_norms, is_new_layer, margin_loss, score_mean, score_median, win_logit
from .precision import CHOICES as PRECISIONS, Precision
from .planes import LEGAL_PLANE, OWNERSHIP_UNKNOWN, PHASES, VALUE_UNKNOWN, Split, augment, extra_inputs, fingerprint, input_planes, unpack

# The configuration: the network's sizes (fixed once a run starts) and the
# training's settings (a resumed run takes the checkpoint's, and any given
# again on its command line).
ARCHITECTURE = {"blocks": 6, "channels": 64, "value_channels": 32, "hidden": 64, "ownership_channels": 32,
                "gpool_channels": 16, "gpool_every": 3, "score_bins": SCORE_BINS}
SETTINGS = {"steps": None, "batch": 1024, "lr": 0.1, "warmup": 0.03, "weight_decay": 1e-4, "seed": 1,
            "value_weight": 1.0, "value_fraction": 0.02, "ownership_weight": 1.0, "komi_vary": 0.5,
            "reply_weight": 0.15, "score_weight": 0.02, "ownership_sum_weight": 0.0}

# The komi a komi-varied position is taught at, for the side to move: a
# half-integer (no count is drawn) uniform within KOMI_NEAR points of 0,
# where the games' leads are and a komi is ever set, or, one draw in
# KOMI_FAR_SHARE, within KOMI_FAR: a komi so far off that the count decides
# the game whatever the position, taught so that the value's reading of
# the komi keeps rising past the leads the games show.
KOMI_NEAR = 40
KOMI_FAR = 250
KOMI_FAR_SHARE = 0.2


def drawn_komi(u_far, u_komi):
    """The side to move's komi (points) of uniform draws `u_far`, `u_komi`
    in [0, 1): a half-integer within KOMI_NEAR of 0, or within KOMI_FAR."""
    reach = torch.where(u_far < KOMI_FAR_SHARE, float(KOMI_FAR), float(KOMI_NEAR))
    return torch.floor(u_komi * 2 * reach) - reach + 0.5


def taught_komi(vary_komi):
    """The lowest and the highest komi (White's, points) the value is taught
    at: the drawn komis (either side's, so either sign) where the komi is
    varied, else the corpus's."""
    if not vary_komi:
        return export.CORPUS_KOMIS
    reach = max(KOMI_FAR, KOMI_NEAR) - 0.5
    return (min(-reach, export.CORPUS_KOMIS[0]), max(reach, export.CORPUS_KOMIS[1]))


def komi_varied_target(margin, komi):
    """Whether the side to move wins a final count of `margin` (its area
    less the opponent's) at its komi `komi`: 1, 0, or 0.5 for a draw."""
    win = margin + komi
    return (win > 0).float() + 0.5 * (win == 0).float()


def configuration(args, checkpoint):
    config = dict(ARCHITECTURE, **SETTINGS)
    if checkpoint:
        config.update(checkpoint["config"])
    for k in config:
        given = getattr(args, k, None)
        if given is None:
            continue
        if checkpoint and k in ARCHITECTURE and k in checkpoint["config"] and given != config[k]:
            sys.exit(f"--{k.replace('_', '-')} {given}: the checkpoint's network has {config[k]}")
        config[k] = given
    if not config["steps"]:
        sys.exit("--steps: the schedule's length in batches")
    return config


class Batches:
    """The batch of each step of a data slice: an epoch's order is a
    permutation seeded by (seed, epoch), the symmetries and the value's
    positions by (seed, step), so the same step always draws the same."""

    def __init__(self, n, batch, seed):
        if n < batch:
            sys.exit(f"{n} taught positions, fewer than a batch of {batch}")
        self.n, self.batch, self.seed = n, batch, seed
        self.per_epoch = n // batch
        self.epoch, self.perm = None, None

    def indices(self, slice_step):
        epoch, i = divmod(slice_step, self.per_epoch)
        if epoch != self.epoch:
            g = torch.Generator().manual_seed(self.seed * 1_000_003 + epoch)
            self.epoch, self.perm = epoch, torch.randperm(self.n, generator=g)
        return self.perm[i * self.batch : (i + 1) * self.batch]

    def draws(self, step):
        """The symmetries (N,), the value's draw (N,) and the komi-varied
        value's three draws (3, N) of a step (drawn after the others, so
        that those stay what they were before them)."""
        g = torch.Generator().manual_seed(self.seed * 1_000_003 + 7_919 * (step + 1))
        syms, draw = torch.randint(0, 8, (self.batch,), generator=g), torch.rand(self.batch, generator=g)
        return syms, draw, torch.rand(3, self.batch, generator=g)


def freeze_all_but_value(model):
    """--value-only: every parameter but the value head's fixed, and every
    batch norm but its own kept in eval mode (its statistics fixed); the
    policy's and ownership's losses then teach nothing."""
    for name, p in model.named_parameters():
        p.requires_grad = name.startswith("value.")
    model.train()
    for name, m in model.named_modules():
        if name and not name.startswith("value"):
            m.eval()


def ownership_targets(own):
    """int8 hundredths (N, points) -> targets in [-1, 1] (N, size, size)
    and the mask of positions that have one."""
    size = int(round(math.sqrt(own.shape[1])))
    known = own[:, 0] != OWNERSHIP_UNKNOWN
    return own.float().view(-1, size, size) / 100.0, known


def ownership_sum_loss(logits, margin):
    """The squared error of the ownership's sum against the final margin
    `margin` (N,), NaN unknown, over 19 points: a mean over the positions
    whose margin is known (0 where none is)."""
    known = ~torch.isnan(margin)
    if not known.any():
        return torch.zeros((), device=logits.device)
    summed = torch.tanh(logits.float()[known]).sum(dim=(1, 2))
    return (((summed - margin[known]) / 19.0) ** 2).mean()


def ownership_loss(logits, target, known):
    """Per position: BCE of (1 + tanh) / 2 against (1 + target) / 2, the
    mean over the points; averaged over the positions with a target."""
    per = F.binary_cross_entropy_with_logits(2 * logits.float(), (target + 1) / 2, reduction="none").mean(dim=(1, 2))
    k = known.float()
    return (per * k).sum() / k.sum().clamp(min=1)


@torch.no_grad()
def measure(model, data, precision, limit=None, batch=2048):
    """The held-out measures (module doc) on the first `limit` positions of
    `data` (a dict of tensors on the CPU), computed as the training is
    (`precision`)."""
    device = precision.device
    modes = [m.training for m in model.modules()]
    model.eval()
    n = data["x"].shape[0] if limit is None else min(limit, data["x"].shape[0])
    size, planes = data["size"], data["planes"]
    right = policy_loss = reply_right = 0.0
    reply_n = 0
    vlogits, vlabels, vnums = [], [], []
    own_loss = own_se = own_right = own_decided = 0.0
    own_n = 0
    varied_logits, varied_targets = [], []
    score_abs = score_nll = own_margin_abs = median_abs = 0.0
    score_n = own_margin_n = 0
    reads_komi = model.shape["planes"] > planes
    for i in range(0, n, batch):
        j = min(n, i + batch)
        raw = unpack(data["x"][i:j].to(device), size, planes)
        komi = data["komi"][i:j]
        x = extra_inputs(raw, komi, model.shape["planes"])
        y = data["moves"][i:j].to(device)
        with precision.autocast():
            policy, value, own, reply = model.heads(x.contiguous(memory_format=precision.memory))
        policy = policy.float()
        if data.get("replies") is not None:
            r = data["replies"][i:j].to(device)
            k = r >= 0
            reply_right += (reply.float().argmax(1)[k] == r[k]).sum().item()
            reply_n += int(k.sum())
        policy_loss += F.cross_entropy(policy, y, reduction="sum").item()
        legal = torch.cat([x[:, LEGAL_PLANE].flatten(1), torch.ones(x.shape[0], 1, device=device)], 1)
        right += (policy.masked_fill(legal == 0, -1e9).argmax(1) == y).sum().item()
        if data["values"] is not None:
            v = data["values"][i:j]
            k = v != VALUE_UNKNOWN
            vlogits.append(win_logit(value.float(), komi.to(device)).cpu()[k])
            vlabels.append(v[k].double())
            vnums.append(data["numbers"][i:j][k])
        if data["ownership"] is not None:
            t, k = ownership_targets(data["ownership"][i:j].to(device))
            if k.any():
                z = own.float()[k]
                t = t[k]
                own_loss += ownership_loss(z, t, torch.ones(t.shape[0], device=device)).item() * t.shape[0]
                pred = torch.tanh(z)
                own_se += ((pred - t) ** 2).mean(dim=(1, 2)).sum().item()
                decided = t.abs() > 0.5
                own_right += ((pred.sign() == t.sign()) & decided).sum().item()
                own_decided += decided.sum().item()
                own_n += t.shape[0]
        margin = data.get("margin")
        known = ~torch.isnan(margin[i:j]) if margin is not None else None
        if known is not None and known.any():
            m, k = margin[i:j][known], known.to(device)
            if own is not None:
                summed = torch.tanh(own.float()[k]).sum(dim=(1, 2)).cpu()
                own_margin_abs += (summed - m).abs().sum().item()
                own_margin_n += m.numel()
            if value is not None and value.dim() == 2:
                scores = value.float()[k]
                score_abs += (score_mean(scores).cpu() - m).abs().sum().item()
                median_abs += (score_median(scores).cpu() - m).abs().sum().item()
                score_nll += margin_loss(scores, m.to(device)).item() * m.numel()
                score_n += m.numel()
            if reads_komi:
                drawn = data["drawn_komi"][i:j][known]
                with precision.autocast():
                    _, varied, _ = model(extra_inputs(raw[k], drawn, model.shape["planes"]).contiguous(memory_format=precision.memory))
                varied_logits.append(win_logit(varied.float(), drawn.to(device)).cpu())
                varied_targets.append(komi_varied_target(m, drawn).double())
    for m, training in zip(model.modules(), modes):
        m.train(training)
    out = {"positions": n, "top1": right / max(1, n), "policy_loss": policy_loss / max(1, n)}
    if reply_n:
        out["reply_top1"] = reply_right / reply_n
    if vlogits and sum(v.numel() for v in vlogits):
        out["value"] = value_measures(torch.cat(vlogits).double(), torch.cat(vlabels), torch.cat(vnums))
    if varied_logits:
        p, y = torch.sigmoid(torch.cat(varied_logits).double()), torch.cat(varied_targets)
        out["value_varied"] = {"positions": int(y.numel()), "mse": float(((p - y) ** 2).mean()),
                               "accuracy": float(((p > 0.5).double() == y).double().mean())}
    if score_n:
        out["score"] = {"positions": score_n, "margin_off": score_abs / score_n, "median_off": median_abs / score_n,
                        "loss": score_nll / score_n}
    if own_n:
        out["ownership"] = {"positions": own_n, "loss": own_loss / own_n, "mse": own_se / own_n, "owner_right": own_right / max(1, own_decided)}
    if own_margin_n:
        out["ownership_margin_off"] = own_margin_abs / own_margin_n
    return out


def value_measures(logits, y, numbers):
    """MSE of sigmoid(logit) against the result, log loss, winners right;
    overall and by phase."""
    p = torch.sigmoid(logits)
    right = ((p > 0.5).double() == y).double()
    out = {"positions": int(y.numel()), "mse": float(((p - y) ** 2).mean()),
           "log_loss": float(F.binary_cross_entropy_with_logits(logits, y)), "accuracy": float(right.mean()), "by_phase": {}}
    for lo, hi in PHASES:
        m = (numbers >= lo) & (numbers < hi)
        if m.any():
            name = f"{lo}-{hi - 1}" if hi < 10**6 else f"{lo}+"
            out["by_phase"][name] = {"positions": int(m.sum()), "accuracy": float(right[m].mean()), "mse": float(((p[m] - y[m]) ** 2).mean())}
    return out


def describe(m):
    s = f"top1 {m['top1']:.4f} policy loss {m['policy_loss']:.3f}"
    if "reply_top1" in m:
        s += f" reply top1 {m['reply_top1']:.4f}"
    if "value" in m:
        s += f" | value MSE {m['value']['mse']:.4f} log loss {m['value']['log_loss']:.4f} right {m['value']['accuracy']:.3f}"
    if "value_varied" in m:
        s += f" | at drawn komi MSE {m['value_varied']['mse']:.4f} right {m['value_varied']['accuracy']:.3f}"
    if "score" in m:
        s += f" | score off {m['score']['margin_off']:.2f} (median {m['score']['median_off']:.2f}) loss {m['score']['loss']:.3f}"
    if "ownership_margin_off" in m:
        s += f" | ownership's sum off {m['ownership_margin_off']:.2f}"
    if "ownership" in m:
        s += f" | ownership loss {m['ownership']['loss']:.4f} MSE {m['ownership']['mse']:.4f} right {m['ownership']['owner_right']:.3f}"
    return s


def tensors_of(split):
    """A Split's arrays as CPU tensors (None where the folder lacks them),
    and a komi drawn for each position (`drawn_komi`, a fixed seed: the
    measure of the value at a komi its game was not played with)."""
    t = lambda a: torch.from_numpy(a) if a is not None else None
    g = torch.Generator().manual_seed(11)
    u = torch.rand(2, len(split), generator=g)
    return {"size": split.size, "planes": split.planes, "x": t(split.x), "moves": t(split.moves), "values": t(split.values),
            "numbers": t(split.numbers), "ownership": t(split.ownership), "komi": t(split.komi), "replies": t(split.replies),
            "margin": t(split.margin), "drawn_komi": drawn_komi(u[0], u[1])}


def lean(t):
    """A tensor of a lean checkpoint: float16, unless a value of it would
    not fit (a batch norm's running variance over 65,504, say)."""
    if not t.is_floating_point():
        return t
    half = t.half()
    return half if torch.isfinite(half).all() else t


def load_checkpoint(path):
    """A checkpoint of save_checkpoint's, or a clear stop: a file that is
    missing, cut short or not a checkpoint is never trained over."""
    try:
        ck = torch.load(path, map_location="cpu")
    except Exception as e:  # torch raises many kinds for a bad file
        sys.exit(f"{path}: cannot load the checkpoint ({type(e).__name__}: {e})")
    if not isinstance(ck, dict) or not str(ck.get("format", "")).startswith("hane_train") or "model" not in ck:
        sys.exit(f"{path}: not a hane_train checkpoint")
    bad = [k for k, v in ck["model"].items() if v.is_floating_point() and not torch.isfinite(v.float()).all()]
    if bad:
        sys.exit(f"{path}: weights that are not finite ({', '.join(bad[:3])}): not resumed")
    return ck


def save_checkpoint(path, model, opt, config, state, lean_checkpoint):
    weights = {k: (lean(v) if lean_checkpoint else v).cpu() for k, v in model.state_dict().items()}
    ck = {"format": "hane_train 1", "config": config, **state, "model": weights, "lean": lean_checkpoint}
    if not lean_checkpoint:
        ck["opt"] = opt.state_dict()
    torch.save(ck, path + ".tmp")
    os.replace(path + ".tmp", path)


# --fit-schedule times the steps from FIT_WARM to FIT_PROBE of a call (the
# first ones pay for cuDNN's choice of algorithms: on an H200, 48 ms a
# step over the first 300 against 15 after, and a schedule fitted to them
# ended at a third of the call's time) and then sets the schedule's length.
FIT_WARM = 100
FIT_PROBE = 300
# Seconds kept after the training for the checkpoint, the measures on all
# held-out positions, the export and its check (--end-by).
END_BY_RESERVE = 75
# --fit-schedule starts a new schedule when the fitted one ends with more
# than this left of the call (seconds): a probe, a warm-up and a cosine.
RESTART_SECONDS = 600


def rate(config, step, total):
    """The learning rate of `step` in the schedule that ends at `total`
    and starts at `config["schedule_start"]` (0 unless a resumed run began
    a new one): a warm-up over its first `warmup` share, from 5% of the
    peak, then a cosine to 0."""
    start = config.get("schedule_start", 0)
    warm = int((total - start) * config["warmup"])
    s = step - start
    if s < warm:
        return config["lr"] * max(0.05, s / warm)
    return config["lr"] * 0.5 * (1 + math.cos(math.pi * (s - warm) / max(1, total - start - warm)))


def fitted(config, args, state, first, t0, pace, timed_measure):
    """--fit-schedule: the schedule's length that the steps' `pace`
    (seconds a step) reaches at the time limit, less the twenty measures on
    the way (one timed now, `timed_measure`) and a little more. Returns
    (total, stop, eval_every)."""
    started = time.time()
    timed_measure()
    measure_seconds = time.time() - started
    left = args.minutes * 60 - (time.time() - t0) - 20 * measure_seconds
    total = state["step"] + max(1, int(0.98 * left / pace))
    print(f"--fit-schedule: {pace * 1000:.1f} ms a step, a measure {measure_seconds:.1f} s, {left:.0f} s left for "
          f"steps: the schedule ends at step {total} (was {config['steps']})", flush=True)
    config["steps"] = total
    return total, total, args.eval_every or max(1, (total - first) // 20)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, help="write_planes' folder: the slice of data this call trains on")
    ap.add_argument("--slice", default=None, help="the slice's name in the checkpoint (default: the folder's name)")
    ap.add_argument("--slice-fingerprint", default=None,
                    help="the slice's fingerprint in the checkpoint (default: the planes folder's, planes.fingerprint); "
                         "gpu_train.sh gives the corpus slice's, from the packer's manifest")
    ap.add_argument("--out", required=True, help="OUT of OUT.pt, OUT.bin, OUT.json, OUT-golden.json")
    ap.add_argument("--resume", help="a checkpoint (OUT.pt) to continue")
    ap.add_argument("--init", help="a new run from an exported weights file (.bin)")
    for k, v in ARCHITECTURE.items():
        ap.add_argument("--" + k.replace("_", "-"), type=int, default=None, help=f"the network (default {v})")
    ap.add_argument("--steps", type=int, default=None, help="the schedule's length in batches (required for a new run)")
    ap.add_argument("--batch", type=int, default=None, help=f"default {SETTINGS['batch']}")
    ap.add_argument("--lr", type=float, default=None, help=f"peak learning rate (default {SETTINGS['lr']})")
    ap.add_argument("--warmup", type=float, default=None, help="share of the schedule warming up (default 0.03)")
    ap.add_argument("--weight-decay", type=float, default=None)
    ap.add_argument("--seed", type=int, default=None, help="default 1")
    ap.add_argument("--value-weight", type=float, default=None)
    ap.add_argument("--value-fraction", type=float, default=None)
    ap.add_argument("--ownership-weight", type=float, default=None)
    ap.add_argument("--reply-weight", type=float, default=None, help="the reply policy's loss weight (default 0.15)")
    ap.add_argument("--ownership-sum-weight", type=float, default=None,
                    help="the weight of the ownership's sum against the final margin (default 0: off; module doc)")
    ap.add_argument("--score-weight", type=float, default=None, help="the final margin's loss weight, with a score head (default 0.02)")
    ap.add_argument("--komi-vary", type=float, default=None,
                    help="share of the value's positions with a known final margin taught at a drawn komi (default 0.5)")
    ap.add_argument("--value-only", action="store_true",
                    help="train the value (and score) head alone, the rest frozen: a new head fitted on a trained trunk (module doc)")
    ap.add_argument("--stop-after", type=int, default=None, help="steps in this call (the schedule unchanged)")
    ap.add_argument("--minutes", type=float, default=None, help="a time limit for this call's training")
    ap.add_argument("--end-by", type=float, default=None,
                    help="a wall-clock time (seconds since the epoch) by which the whole call must be done: the training "
                         "stops END_BY_RESERVE seconds before it, for the last measures and the export (a lent machine's call)")
    ap.add_argument("--fit-schedule", action="store_true",
                    help="with --minutes: after FIT_PROBE steps of this call, the schedule's length (--steps) is set "
                         "so that it ends at the time limit, the rate reaching 0 there (module doc)")
    ap.add_argument("--eval-every", type=int, default=None, help="steps between measures (default a twentieth of the schedule)")
    ap.add_argument("--eval-positions", type=int, default=50000)
    ap.add_argument("--lean-checkpoint", action="store_true", help="weights only, float16 (module doc)")
    ap.add_argument("--golden", help="write_planes' folder of the golden game (reference.py)")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--threads", type=int, default=None, help="CPU threads for PyTorch (default: PyTorch's)")
    ap.add_argument("--precision", choices=PRECISIONS, default="auto",
                    help="bf16 autocast or fp32 (auto: bf16 on a GPU and on a CPU with AMX or AVX512-BF16)")
    ap.add_argument("--checkpoint-every", type=float, default=None,
                    help="minutes between the checkpoints (and exports) written on the way, beside the last")
    ap.add_argument("--progress", help="a tab-separated log that gets a line at each checkpoint (cumulative steps, positions, pace)")
    args = ap.parse_args()
    if args.resume and args.init:
        sys.exit("--resume or --init, not both")

    start = time.time()
    log = lambda msg: print(f"[{os.path.basename(args.out)} {time.time() - start:7.1f}s] {msg}", flush=True)
    if args.threads:
        torch.set_num_threads(args.threads)
    device = torch.device(args.device)
    if device.type == "cuda":
        torch.backends.cudnn.benchmark = True
    checkpoint = load_checkpoint(args.resume) if args.resume else None
    config = configuration(args, checkpoint)
    torch.manual_seed(config["seed"])

    train, held = Split(args.data, "train"), Split(args.data, "held")
    slice_id = {"name": args.slice or os.path.basename(os.path.normpath(args.data)),
                "fingerprint": args.slice_fingerprint or fingerprint(args.data)}
    log(f"{len(train)} taught positions ({'with' if train.values is not None else 'no'} results, "
        f"{'with' if train.ownership is not None else 'no'} ownership), {len(held)} held out; slice {slice_id}")
    if train.ownership is None:
        log("no ownership targets (write_planes --ownership): the ownership head is not taught")

    model = Net(config["blocks"], config["channels"], config["value_channels"], config["hidden"], config["ownership_channels"],
                planes=input_planes(train.planes), gpool_channels=config["gpool_channels"], gpool_every=config["gpool_every"],
                score_bins=config["score_bins"])
    state = {"step": 0, "positions": 0, "slice": dict(slice_id, step=0), "slices": [], "init": args.init}
    if checkpoint:
        weights = {k: v.float() if v.is_floating_point() else v for k, v in checkpoint["model"].items()}
        # A checkpoint from before the score head (its value's last layer
        # one logit): that layer starts afresh as the score head's.
        own_shapes = model.state_dict()
        rescored = [k for k in SCORE_KEYS if k in weights and weights[k].shape != own_shapes[k].shape]
        for k in rescored:
            del weights[k]
        if rescored:
            log(f"the checkpoint's value head gives one logit: its last layer starts afresh as the score head's "
                f"({config['score_bins']} margins), and the momentum too")
            checkpoint.pop("opt", None)
        missing, unexpected = model.load_state_dict(weights, strict=False)
        missing = [k for k in missing if k not in rescored]
        if unexpected or not all(is_new_layer(k) for k in missing):
            sys.exit(f"{args.resume} does not fit the network: missing {missing}, unexpected {unexpected}")
        if missing:
            log(f"the checkpoint is from before {len(missing)} tensors of the reply head or the global pooling: "
                "they start afresh (the function unchanged), and the momentum too")
            checkpoint.pop("opt", None)
        state = {k: checkpoint[k] for k in ("step", "positions", "slice", "slices", "init")}
        if state["slice"]["fingerprint"] != slice_id["fingerprint"]:
            state["slices"].append(state["slice"])
            state["slice"] = dict(slice_id, step=0)
            log(f"a new data slice: its batches from its start")
        log(f"resumed {args.resume} at step {state['step']} ({state['positions']} positions; "
            f"{state['slice']['step']} steps on this slice){' lean: momentum afresh' if checkpoint['lean'] else ''}")
    elif args.init:
        _, shape, tensors = export.read(args.init)
        for k in ("channels", "blocks", "kernel"):
            if shape[k] != model.shape[k]:
                sys.exit(f"{args.init} has {k} {shape[k]}, the network {model.shape[k]}")
        if shape["planes"] not in (model.shape["planes"], train.planes):
            sys.exit(f"{args.init} has {shape['planes']} input planes, the network {model.shape['planes']}")
        log(f"from {args.init}: {export.load_into(model, shape, tensors)}")
        g = torch.Generator().manual_seed(config["seed"])
        calib = torch.randperm(len(train), generator=g)[:1024]
        calib = calib.numpy()
        x = unpack(torch.from_numpy(train.x[calib]), train.size, train.planes)
        calibrate_norms(model, extra_inputs(x, torch.from_numpy(train.komi[calib]), model.shape["planes"]))
    precision = Precision(device, args.precision)
    memory = precision.memory
    log(f"computing in {precision.describe()}")
    model = model.to(device).to(memory_format=memory)
    if args.value_only:
        freeze_all_but_value(model)
        log("the value head alone is trained: the rest of the network frozen, its batch norms' statistics too")
    taught = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.SGD(taught, lr=config["lr"], momentum=0.9, nesterov=True, weight_decay=config["weight_decay"])
    if checkpoint and "opt" in checkpoint:
        opt.load_state_dict(checkpoint["opt"])
    params = sum(p.numel() for p in model.parameters())
    log(f"{config['blocks']} blocks x {config['channels']} channels, value {config['value_channels']} -> {config['hidden']}, "
        f"ownership {config['ownership_channels']}: {params} parameters; config {config}")

    xtr = torch.from_numpy(train.x).to(device)
    ytr = torch.from_numpy(train.moves).to(device)
    vtr = torch.from_numpy(train.values).to(device) if train.values is not None else None
    otr = torch.from_numpy(train.ownership).to(device) if train.ownership is not None else None
    rtr = torch.from_numpy(train.replies).to(device)
    ktr = torch.from_numpy(train.komi).to(device)
    mtr = torch.from_numpy(train.margin).to(device)
    vary_komi = config["komi_vary"] > 0 and model.shape["planes"] > train.planes
    log(f"{int((~torch.isnan(mtr)).sum())} taught positions with a known final margin"
        f"{'' if vary_komi else ' (the komi is not varied)'}")
    log(f"komi of the taught positions (side to move's, points): "
        f"{', '.join(f'{k:g}: {n}' for k, n in zip(*np.unique(np.nan_to_num(train.komi, nan=-999.0), return_counts=True)))} (-999: unknown)")
    held_t = tensors_of(held)
    g = torch.Generator().manual_seed(7)
    sample = torch.randperm(len(held), generator=g)[: args.eval_positions]
    held_sample = {k: (v[sample] if torch.is_tensor(v) else v) for k, v in held_t.items()}

    batches = Batches(len(train), config["batch"], config["seed"])
    # Under --fit-schedule a schedule within a probe of its end counts as
    # ended: its last steps at a rate near 0 teach nothing.
    near_end = FIT_PROBE if args.fit_schedule else 0
    if checkpoint and state["step"] + near_end >= checkpoint["config"]["steps"] and (args.fit_schedule or config["steps"] > state["step"]):
        config["schedule_start"] = state["step"]
        if args.fit_schedule:
            # A provisional length the fitted one replaces at the probe:
            # long enough that the probe's steps are all warming up.
            config["steps"] = max(config["steps"], state["step"] + 100 * FIT_PROBE)
        log(f"the checkpoint's schedule had ended: a new one from step {state['step']} (a warm-up and a cosine)")
    total = config["steps"]
    # A run from a weights file warms up too: its batch norms recalibrated
    # and its momentum fresh, the full rate at once broke it (on slice 0 at
    # 0.03: held-out top-1 0.48 to 0.45 in 300 steps, and the value head
    # dead, a constant 0.5, for the rest of the run). The warm-up is part of
    # the schedule, so a resumed run computes the same rates.
    eval_every = args.eval_every or max(1, (total - config.get("schedule_start", 0)) // 20)
    history = checkpoint.get("history", []) if checkpoint else []
    stop = total if args.stop_after is None else min(total, state["step"] + args.stop_after)
    # Where this call starts from, on the same held-out sample as the
    # measures after it: what the call's steps are to beat.
    start_measure = measure(model, held_sample, precision)
    history.append({"step": state["step"], "positions": state["positions"], "start_of_call": True, **start_measure})
    log(f"step {state['step']} (this call's start) held: {describe(start_measure)}")
    t0 = time.time()
    if args.end_by:
        left = (args.end_by - END_BY_RESERVE - t0) / 60
        if args.minutes is None or left < args.minutes:
            log(f"--end-by: {left:.2f} minutes of training left in this call")
            args.minutes = max(left, 0.01)
    first = state["step"]
    last_published = t0

    def publish(final):
        """The checkpoint, the weights exported with their golden file,
        the measures (on all held-out positions at the end, else the last
        sample's) and a line of the progress log; each file replaced
        whole, and nothing written from weights that are not finite."""
        steps_now = state["step"] - first
        seconds = time.time() - t0
        if not all(torch.isfinite(v).all() for v in model.state_dict().values() if v.is_floating_point()):
            sys.exit(f"step {state['step']}: a weight is not finite: stopped, no checkpoint written")
        log(f"{steps_now} steps in {seconds:.0f} s ({steps_now / max(seconds, 1e-9):.2f} a second, "
            f"{steps_now * config['batch'] / max(seconds, 1e-9):.0f} positions a second); step {state['step']} of {total}, "
            f"{state['positions']} positions in all")
        save_checkpoint(args.out + ".pt", model, opt, config, dict(state, history=history), args.lean_checkpoint)
        log(f"checkpoint {args.out}.pt: {os.path.getsize(args.out + '.pt')} bytes")
        if final:
            measured = measure(model, held_t, precision)
            log(f"all {measured['positions']} held-out positions: {describe(measured)}")
        else:
            measured = history[-1]
        exported = copy.deepcopy(model).cpu().to(memory_format=torch.contiguous_format).eval()
        export.write(exported, args.out + ".bin.tmp", taught_komi(vary_komi))
        os.replace(args.out + ".bin.tmp", args.out + ".bin")
        summary = {"config": config, "parameters": params, **{k: state[k] for k in ("step", "positions", "slice", "slices", "init")},
                   "steps_this_call": steps_now, "seconds": round(seconds), "taught_positions": len(train), "held_out": measured,
                   "held_out_all": final, "history": history, "precision": precision.describe(),
                   "device": str(device) + (f" ({torch.cuda.get_device_name()})" if device.type == "cuda" else f" ({cpu_name()})"),
                   "threads": torch.get_num_threads(), "torch": torch.__version__, "numpy": np.__version__}
        if args.golden:
            summary["export_check"] = check_export(exported, args.out + ".bin", args.golden)
            log(f"the exported file's forward pass against the model's own (float64): {summary['export_check']}")
            network = {"held_out": measured, "step": state["step"], "positions": state["positions"]}
            write_whole(args.out + "-golden.json", json.dumps(reference.golden_file(args.out + ".bin", args.golden, network)) + "\n")
        write_whole(args.out + ".json", json.dumps(summary, indent=1))
        if args.progress:
            progress_line(args.progress, summary, steps_now * config["batch"], seconds, final)
        log(f"wrote {args.out}.bin ({os.path.getsize(args.out + '.bin')} bytes), .json, .pt" + (", -golden.json" if args.golden else ""))

    probe_from = first
    while True:
        if state["step"] >= stop:
            left = args.minutes * 60 - (time.time() - t0) if args.minutes else 0
            if not (args.fit_schedule and args.stop_after is None and left > RESTART_SECONDS):
                break
            # The fitted schedule ended with time to spare (its pace was
            # timed while the machine was busier than it became): a new
            # warm-up and cosine from here, fitted again, rather than the
            # rest of the call at a rate of 0 (as a CPU run beside a match
            # once spent 70 of its 112 minutes).
            config["schedule_start"] = state["step"]
            config["steps"] = state["step"] + 100 * FIT_PROBE
            total = stop = config["steps"]
            probe_from = state["step"]
            log(f"the fitted schedule ended at step {state['step']} with {left:.0f} s left: a new one from here")
        if state["step"] - probe_from == FIT_WARM:
            t_warm = time.time()
        if args.fit_schedule and args.minutes and state["step"] - probe_from == FIT_PROBE:
            pace = (time.time() - t_warm) / (FIT_PROBE - FIT_WARM)
            total, stop, eval_every = fitted(config, args, state, first, t0, pace,
                                                   lambda: log(f"step {state['step']} held: {describe(measure(model, held_sample, precision))}"))
        if args.minutes and time.time() - t0 > args.minutes * 60:
            log(f"time limit at step {state['step']}")
            break
        step = state["step"]
        lr = rate(config, step, total)
        for group in opt.param_groups:
            group["lr"] = lr
        idx = batches.indices(state["slice"]["step"]).to(device)
        syms, draw, vary = (t.to(device) for t in batches.draws(step))
        own_t, own_known = ownership_targets(otr[idx]) if otr is not None else (None, None)
        x, y, own_t, replies = augment(unpack(xtr[idx], train.size, train.planes), ytr[idx], own_t, syms, rtr[idx])
        chosen = draw < config["value_fraction"]
        komi, played = ktr[idx], torch.ones_like(chosen)
        value_mask = None
        if vtr is not None:
            value_target = vtr[idx].float()
            value_mask = (vtr[idx] != VALUE_UNKNOWN) & chosen
            if vary_komi:
                margin = mtr[idx]
                varied = chosen & ~torch.isnan(margin) & (vary[0] < config["komi_vary"])
                new = drawn_komi(vary[1], vary[2])
                komi = torch.where(varied, new, komi)
                value_target = torch.where(varied, komi_varied_target(margin, new), value_target)
                value_mask, played = value_mask | varied, ~varied
        x = extra_inputs(x, komi, model.shape["planes"]).contiguous(memory_format=memory)
        with precision.autocast():
            policy, value, own, reply = model.heads(x)
        loss = policy_loss = F.cross_entropy(policy.float()[played], y[played])
        value_loss = own_loss = reply_loss = score_loss = torch.zeros((), device=device)
        replied = played & (replies >= 0)
        if replied.any():
            reply_loss = F.cross_entropy(reply.float()[replied], replies[replied])
            loss = loss + config["reply_weight"] * reply_loss
        if value_mask is not None and value_mask.any():
            value_loss = F.binary_cross_entropy_with_logits(win_logit(value.float(), komi)[value_mask], value_target[value_mask])
            loss = loss + config["value_weight"] * value_loss
            margin = mtr[idx]
            counted = value_mask & ~torch.isnan(margin)
            if value.dim() == 2 and counted.any():
                score_loss = margin_loss(value[counted], margin[counted])
                loss = loss + config["score_weight"] * score_loss
        if own_t is not None and own_known.any():
            own_loss = ownership_loss(own, own_t, own_known)
            loss = loss + config["ownership_weight"] * own_loss
        if own is not None and mtr is not None:
            # The game's margin, whatever komi the position was taught at:
            # the ownership is the board's, not the komi's.
            loss = loss + config["ownership_sum_weight"] * ownership_sum_loss(own, mtr[idx])
        if not torch.isfinite(loss):
            # A diverged run writes nothing: the last checkpoint it wrote
            # (or the one it resumed) stays the last good one.
            sys.exit(f"step {state['step']}: the loss is not finite ({policy_loss.item()} + {value_loss.item()} + "
                     f"{own_loss.item()} + {reply_loss.item()} + {score_loss.item()}): stopped, no checkpoint written")
        opt.zero_grad(set_to_none=True)
        # Without it (--value-only, and no position of the batch taught the
        # value) the step teaches nothing.
        if loss.requires_grad:
            loss.backward()
            opt.step()
        state["step"] += 1
        state["slice"]["step"] += 1
        state["positions"] += config["batch"]
        if state["step"] % eval_every == 0 or state["step"] == stop:
            m = measure(model, held_sample, precision)
            history.append({"step": state["step"], "positions": state["positions"], "lr": lr, "seconds": round(time.time() - t0), **m})
            log(f"step {state['step']}/{total} lr {lr:.4f} loss {policy_loss.item():.3f}+{value_loss.item():.3f}+{own_loss.item():.3f}+{reply_loss.item():.3f}+{score_loss.item():.3f} held: {describe(m)}")
        if args.checkpoint_every and time.time() - last_published > args.checkpoint_every * 60 and state["step"] < stop:
            publish(final=False)
            last_published = time.time()
    publish(final=True)
    return 0


def write_whole(path, text):
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


PROGRESS_COLUMNS = ["utc", "device", "precision", "threads", "step", "positions", "slice", "slice_step",
                    "positions_this_run", "seconds_this_run", "positions_a_second", "final", "top1", "value_mse"]


def progress_line(path, summary, positions_now, seconds, final):
    """One line of the cumulative progress log (tab-separated, a header
    when the file is new): where the run is and what it trained at."""
    held = summary["held_out"]
    row = [time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), summary["device"], summary["precision"], summary["threads"],
           summary["step"], summary["positions"], summary["slice"]["name"], summary["slice"]["step"], positions_now,
           round(seconds), round(positions_now / max(seconds, 1e-9)), "yes" if final else "no",
           f"{held['top1']:.4f}", f"{held['value']['mse']:.4f}" if "value" in held else ""]
    new = not os.path.exists(path)
    with open(path, "a") as f:
        if new:
            f.write("\t".join(PROGRESS_COLUMNS) + "\n")
        f.write("\t".join(str(v) for v in row) + "\n")


@torch.no_grad()
def check_export(model, path, golden):
    """The trained model's own outputs (eval mode, float64) on the golden
    positions against the reference forward pass of the exported file:
    they must agree (1e-4, plus f32 rounding in proportion to the outputs),
    or the export is wrong and the run stops."""
    _, out = reference.outputs(path, golden)
    from .planes import golden_inputs

    _, x = golden_inputs(golden, out["positions"], model.shape["planes"])
    model = model.double()
    policy, value, own = model(x)
    model.float()
    mine = {"logits": policy.tolist(), "score" if value.dim() == 2 else "values": value.tolist(),
            "ownership": torch.tanh(own).flatten(1).tolist()}
    diff = reference.differences(out, mine)
    scale = max(abs(v) for row in mine["logits"] for v in row)
    if not max(diff.values()) <= 1e-4 + 1e-6 * scale:
        sys.exit(f"{path}: the file's forward pass differs from the model's: {diff}")
    return diff


if __name__ == "__main__":
    sys.exit(main())
