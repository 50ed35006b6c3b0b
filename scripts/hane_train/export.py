"""The one writer (and reader) of the engine's weights file
(src/player/network/network_file.rs reads it; data/policy-net.bin is
one).

The 8 bytes `HANEPOL1`, then little-endian u32 words (each version's
words, in order, are data/weights-format.json's, read through
weights_format.py; the engine's loader is tested against the same table):
the format version,
the input planes, the trunk's channels C, its residual blocks B, the first
convolution's kernel side; version 2 adds the value head's channels V and
hidden units H (both 0: no value head); version 3 the ownership head's
channels O (0: none); version 4 the global pooling's channels G and its
period P (0 and 0: none; else the blocks b with b % P == P - 1 pool);
version 5 the score head's bins S (0: the value head gives one logit;
else S logits, one a final margin of the side to move from -(S - 1) / 2
to +(S - 1) / 2 points, model.py); version 6 the lowest and the highest
komi (White's, in half points, two's complement) a network that reads the
komi was taught at (both 0 for a komi-blind one): the engine tells it the
nearest of them and believes its value only within them.
Then little-endian f32 tensors in PyTorch's (out, in,
row, column) order, batch norm folded into the convolutions:

    stem weights (C x planes x k x k), bias (C)
    per block: conv1 weights (C x C x 3 x 3), bias (C); where the block
        pools (version 4), its pooling convolution's weights (G x C x 3 x
        3), bias (G) and its map (C x 2G, a row per channel, inputs
        [means..., maxes...]); conv2 weights (C x C x 3 x 3), bias (C)
    policy: weights (C), bias (1); pass: weights (C, over the trunk's mean
        over the board), bias (1)
    value (V > 0): 1x1 conv weights (V x C), bias (V); fc1 weights (H x 2V,
        a row per output, inputs [means..., maxes...]), bias (H); fc2
        weights (H), bias (1), or with a score head (S > 0) weights (S x
        H, a row a margin, lowest first), biases (S)
    ownership (O > 0): 3x3 conv weights (O x C x 3 x 3), bias (O); 1x1
        weights (O), bias (1)

`write` always writes the newest version (6), every head; `read` reads
1 to 6, so the shipped file and any older one load back. The engine
reads a file of 19 planes (komi-blind) or 20 (the komi plane last,
hane_train.planes.extra_inputs).
"""

import struct
import sys

import numpy as np
import torch

from .model import pooling_blocks
from .planes import KOMI_PLANES
from .weights_format import pack_header, unpack_header
# The komis (White's) of the corpus's games, TYGEM's and Tom's: all a
# network is taught at unless training varies the komi (train.py).
CORPUS_KOMIS = (6.5, 7.5)


def shapes(shape):
    """The file's tensors' shapes, in order, for a header's sizes."""
    p, c, b, k = shape["planes"], shape["channels"], shape["blocks"], shape["kernel"]
    v, h, o = shape["value_channels"], shape["hidden"], shape["ownership_channels"]
    g = shape.get("gpool_channels", 0)
    pooling = pooling_blocks(b, shape.get("gpool_every", 0))
    out = [(c, p, k, k), (c,)]
    for block in range(b):
        out += [(c, c, 3, 3), (c,)]
        if block in pooling:
            out += [(g, c, 3, 3), (g,), (c, 2 * g)]
        out += [(c, c, 3, 3), (c,)]
    out += [(c,), (1,), (c,), (1,)]
    if v:
        s = shape.get("score_bins", 0)
        out += [(v, c), (v,), (h, 2 * v), (h,)] + ([(s, h), (s,)] if s else [(h,), (1,)])
    if o:
        out += [(o, c, 3, 3), (o,), (o,), (1,)]
    return out


def folded(conv, bn):
    """A convolution without bias and the batch norm after it, as one
    convolution's weights and bias (float64)."""
    scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
    w = conv.weight * scale.view(-1, 1, 1, 1)
    return w.detach().double(), (bn.bias - bn.running_mean * scale).detach().double()


@torch.no_grad()
def tensors_of(model):
    """A hane_train.model.Net's tensors in the file's order, batch norm
    folded, float64."""
    d = lambda t: t.detach().double()
    out = list(folded(model.stem, model.stem_bn))
    for b in model.blocks:
        out += folded(b.conv1, b.bn1)
        if b.gpool is not None:
            out += [*folded(b.gpool.conv, b.gpool.bn), d(b.gpool.fc.weight)]
        out += folded(b.conv2, b.bn2)
    out += [d(model.policy_conv.weight).flatten(), d(model.policy_conv.bias), d(model.pass_fc.weight).flatten(), d(model.pass_fc.bias)]
    if model.value is not None:
        v = model.value
        w, b = folded(v.conv, v.bn)
        fc2 = d(v.fc2.weight) if v.score_bins else d(v.fc2.weight).flatten()
        out += [w.flatten(1), b, d(v.fc1.weight), d(v.fc1.bias), fc2, d(v.fc2.bias)]
    if model.ownership is not None:
        o = model.ownership
        out += [d(o.conv1.weight), d(o.conv1.bias), d(o.conv2.weight).flatten(), d(o.conv2.bias)]
    return out


def write(model, path, taught_komi=CORPUS_KOMIS):
    """The model as a version 6 weights file; `taught_komi` the lowest and
    the highest komi (White's, points) it was taught at, written where it
    reads the komi."""
    s = model.shape
    tensors = tensors_of(model)
    for t, want in zip(tensors, shapes(s)):
        assert tuple(t.shape) == want, f"{tuple(t.shape)} where the format has {want}"
    low, high = (round(2 * k) for k in taught_komi) if s["planes"] == KOMI_PLANES else (0, 0)
    assert low <= high, f"komis taught from {taught_komi[0]} to {taught_komi[1]}"
    words = {**s, "komi_low_half_points": low, "komi_high_half_points": high}
    with open(path, "wb") as f:
        f.write(pack_header(words))
        for t in tensors:
            f.write(t.cpu().numpy().astype("<f4").tobytes())


def read(path):
    """(version, shape dict, tensors in the file's order as float64) of a
    file of version 1 to 6; the shape's `taught_komi` the komis (points)
    it says it was taught at (version 6), else None."""
    data = open(path, "rb").read()
    try:
        version, words, header_bytes = unpack_header(data)
    except ValueError as e:
        sys.exit(f"{path}: {e}")
    shape = {w: words[w] for w in ("planes", "channels", "blocks", "kernel", "value_channels", "hidden", "ownership_channels",
                                   "gpool_channels", "gpool_every", "score_bins")}
    low, high = words["komi_low_half_points"], words["komi_high_half_points"]
    shape["taught_komi"] = (low / 2, high / 2) if version >= 6 else None
    values = np.frombuffer(data, dtype="<f4", offset=header_bytes).astype(np.float64)
    out, at = [], 0
    for s in shapes(shape):
        n = int(np.prod(s))
        out.append(torch.from_numpy(values[at : at + n].copy()).view(s))
        at += n
    if at != values.size:
        sys.exit(f"{path}: {values.size} weights where its header says {at}")
    return version, shape, out


@torch.no_grad()
def load_into(model, shape, tensors):
    """A file's tensors (batch norm folded; `shape` its header's sizes) into
    a Net of the same trunk: each batch norm made the identity carrying the
    file's bias, so that the model in eval mode computes exactly what the
    file does (then model.calibrate_norms before training on from it). A
    head the file lacks, or holds at other sizes, stays as initialised.
    Returns what was loaded, in words."""
    it = iter(tensors)

    def conv_bn(conv, bn):
        conv.weight.copy_(next(it).view_as(conv.weight))
        bn.weight.fill_(1.0)
        bn.bias.copy_(next(it))
        bn.running_mean.zero_()
        bn.running_var.fill_(1.0 - bn.eps)

    def params(ps):
        for p in ps:
            p.copy_(next(it).view_as(p))

    # A komi-blind file (its planes the ones written) into a network that
    # reads the komi too: the komi plane's weights start at 0, so the model
    # computes the file's function until training moves them.
    stem = next(it)
    if stem.shape[1] < model.stem.weight.shape[1]:
        model.stem.weight.zero_()
        model.stem.weight[:, : stem.shape[1]].copy_(stem)
    else:
        model.stem.weight.copy_(stem.view_as(model.stem.weight))
    model.stem_bn.weight.fill_(1.0)
    model.stem_bn.bias.copy_(next(it))
    model.stem_bn.running_mean.zero_()
    model.stem_bn.running_var.fill_(1.0 - model.stem_bn.eps)
    file_pooling = pooling_blocks(shape["blocks"], shape.get("gpool_every", 0))
    pooled = shape.get("gpool_channels", 0) == model.shape["gpool_channels"] and shape.get("gpool_every", 0) == model.shape["gpool_every"]
    for i, b in enumerate(model.blocks):
        conv_bn(b.conv1, b.bn1)
        if i in file_pooling:
            if pooled:
                conv_bn(b.gpool.conv, b.gpool.bn)
                params((b.gpool.fc.weight,))
            else:
                for _ in range(3):
                    next(it)
        conv_bn(b.conv2, b.bn2)
    params((model.policy_conv.weight, model.policy_conv.bias, model.pass_fc.weight, model.pass_fc.bias))
    loaded = ["trunk" + (" with its global pooling" if pooled and file_pooling else ""), "policy"]
    ms = model.shape
    if shape["value_channels"]:
        if model.value is not None and (shape["value_channels"], shape["hidden"], shape["score_bins"]) == (
                ms["value_channels"], ms["hidden"], ms["score_bins"]):
            v = model.value
            conv_bn(v.conv, v.bn)
            params((v.fc1.weight, v.fc1.bias, v.fc2.weight, v.fc2.bias))
            loaded.append("value")
        else:
            for _ in range(6):
                next(it)
    if shape["ownership_channels"]:
        if model.ownership is not None and shape["ownership_channels"] == ms["ownership_channels"]:
            o = model.ownership
            params((o.conv1.weight, o.conv1.bias, o.conv2.weight, o.conv2.bias))
            loaded.append("ownership")
    new = [h for h in ("value", "ownership") if h not in loaded and getattr(model, h) is not None]
    if model.shape["gpool_channels"] and not (pooled and file_pooling):
        new.append("global pooling (its map at 0)")
    return ", ".join(loaded) + " from the file" + (f"; {' and '.join(new)} new" if new else "")
