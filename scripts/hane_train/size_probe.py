"""What each size of the network costs a training step on this machine:
the half of issue 56's size choice that a lent GPU measures (the other,
what an evaluation costs the engine on one core, is `hane bench`'s).

For each size (BLOCKSxCHANNELS; the heads and the global pooling as
train.py's ARCHITECTURE has them), a fresh network takes --steps steps of
SGD on random positions of --batch (the policy's, the value's, the
ownership's and the reply's losses, as a training step has them; bfloat16
and channels-last on a GPU, as train.py), and the last half of them are
timed, after cuDNN has chosen its algorithms. Printed per size: the
parameters, milliseconds a step, positions a second, and the positions
a minute of this machine would teach, against the first size's.

    PYTHONPATH=scripts python3 -m hane_train.size_probe --sizes 6x64,8x96,10x128

scripts/gpu_train.sh runs it before the training where PROBE_SIZES is set.
"""
import argparse
import sys
import time

import torch
import torch.nn.functional as F

from .model import Net
from .planes import KOMI_PLANES
from .train import ARCHITECTURE


def size_of(text):
    blocks, _, channels = text.partition("x")
    return int(blocks), int(channels)


def probe(blocks, channels, batch, steps, device, size=19):
    """(parameters, seconds a step over the last half of `steps`)."""
    torch.manual_seed(1)
    arch = dict(ARCHITECTURE, blocks=blocks, channels=channels)
    model = Net(blocks, channels, arch["value_channels"], arch["hidden"], arch["ownership_channels"],
                planes=KOMI_PLANES, gpool_channels=arch["gpool_channels"], gpool_every=arch["gpool_every"])
    memory = torch.channels_last if device.type == "cuda" else torch.contiguous_format
    model = model.to(device).to(memory_format=memory)
    opt = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9, nesterov=True)
    points = size * size
    x = (torch.rand(batch, KOMI_PLANES, size, size, device=device) < 0.3).float().contiguous(memory_format=memory)
    moves = torch.randint(0, points + 1, (batch,), device=device)
    winners = torch.randint(0, 2, (batch,), device=device).float()
    owners = torch.rand(batch, size, size, device=device) * 2 - 1
    timed_from = steps // 2
    for step in range(steps):
        if step == timed_from:
            if device.type == "cuda":
                torch.cuda.synchronize()
            t0 = time.time()
        with torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=device.type == "cuda"):
            policy, value, own, reply = model.heads(x)
        loss = (F.cross_entropy(policy.float(), moves) + F.cross_entropy(reply.float(), moves)
                + F.binary_cross_entropy_with_logits(value.float(), winners)
                + F.mse_loss(torch.tanh(own.float()), owners))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    if device.type == "cuda":
        torch.cuda.synchronize()
    return sum(p.numel() for p in model.parameters()), (time.time() - t0) / (steps - timed_from)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="6x64,8x96,10x128", help="BLOCKSxCHANNELS, comma-separated")
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--steps", type=int, default=60, help="steps a size (the last half timed)")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--threads", type=int, default=None, help="CPU threads for PyTorch")
    args = ap.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    device = torch.device(args.device)
    if device.type == "cuda":
        torch.backends.cudnn.benchmark = True
    try:
        sizes = [size_of(s) for s in args.sizes.split(",")]
    except ValueError:
        sys.exit(f"--sizes: BLOCKSxCHANNELS, comma-separated, not {args.sizes!r}")
    if args.steps < 2 or any(b < 1 or c < 1 for b, c in sizes):
        sys.exit("--steps is 2 or more, and each size at least 1x1")
    name = torch.cuda.get_device_name() if device.type == "cuda" else "cpu"
    print(f"size probe on {name}, batch {args.batch}, {args.steps} steps a size (the last {args.steps - args.steps // 2} timed)",
          flush=True)
    first = None
    for blocks, channels in sizes:
        params, seconds = probe(blocks, channels, args.batch, args.steps, device)
        rate = args.batch / seconds
        first = first or rate
        print(f"size {blocks}x{channels}: {params} parameters, {1000 * seconds:.1f} ms a step, {rate:,.0f} positions a second, "
              f"{60 * rate / 1e6:.2f} million a minute ({rate / first:.2f} of the first size's)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
