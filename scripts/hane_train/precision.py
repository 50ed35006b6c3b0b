"""How the training computes: bf16 autocast or fp32, and the memory layout
of its convolutions, chosen once for a device.

bf16 autocast pays where the hardware multiplies bf16: a GPU, or a CPU
with AMX or AVX512-BF16 (measured on a Xeon with AMX, 2 threads, a 6x64
with every head: fp32 194 positions a second, bf16 554, both with
channels_last; docs/network.md, "Training on the CPU"). A CPU without
them (an AMD EPYC of the development machines) emulates bf16 and is
slower than fp32, so `auto` keeps fp32 there. channels_last is faster
for both on the CPUs measured and on a GPU.
"""

import contextlib

import torch

CHOICES = ("auto", "bf16", "fp32")


def cpu_flags():
    """The CPU's feature flags as /proc/cpuinfo lists them (empty where it
    cannot be read)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def cpu_multiplies_bf16(flags=None):
    flags = cpu_flags() if flags is None else flags
    return bool({"amx_bf16", "avx512_bf16"} & flags)


class Precision:
    """`choice` (auto, bf16, fp32) made for `device`: `bf16` whether
    autocast is on, `memory` the layout of the model and its inputs,
    `autocast()` the context a forward pass runs in."""

    def __init__(self, device, choice="auto", flags=None):
        if choice not in CHOICES:
            raise ValueError(f"precision {choice!r}: one of {', '.join(CHOICES)}")
        if choice == "auto":
            self.bf16 = device.type == "cuda" or (device.type == "cpu" and cpu_multiplies_bf16(flags))
        else:
            self.bf16 = choice == "bf16"
        self.device = device
        self.memory = torch.channels_last

    def autocast(self):
        if not self.bf16:
            return contextlib.nullcontext()
        return torch.autocast(device_type=self.device.type, dtype=torch.bfloat16)

    def describe(self):
        return f"{'bf16 autocast' if self.bf16 else 'fp32'}, channels_last, on {self.device}"
