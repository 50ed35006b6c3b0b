"""The one reader of what examples/write_planes writes, and the board's
symmetries applied to a position and to its targets together.

A planes folder (write_planes --out DIR) holds, one set per writer thread t
and split (`train`, `held`):

- `SPLIT-t.bin`: per position the input planes bit-packed, plane after
  plane, points in `BoardSize::index` order (row from the bottom times the
  width, plus the column), eight points a byte, the first in the lowest
  bit, each position padded to whole bytes;
- `SPLIT-t.lbl`: the move played, a little-endian u16 (the point's index,
  or width * height for a pass);
- `SPLIT-t.rep` (write_planes since session 24): the opponent's reply to
  the move played, as `.lbl`, 65535 where the game ended with the move;
  read into `Split.replies` (-1 unknown or absent);
- `SPLIT-t.val` (with `--results`): 1 if the side to move won, 0 if it
  lost, 255 unknown; `SPLIT-t.num`: the move number (u16);
- `SPLIT-t.own` (with `--ownership`): one signed byte a point, the final
  owner for the side to move in hundredths, every byte -128 where unknown;
- `SPLIT-t.komi` (write_planes since issue 56; absent in older folders):
  the game's komi in half points for the side to move, a signed byte
  (13: White to move at 6.5; -13: Black to move), -128 unknown. Read into
  `Split.komi` (points, float, NaN unknown or absent);
- `SPLIT-t.mar` (write_planes since session 24; absent in older folders):
  the game's final area margin for the side to move in half points,
  komi not counted, a little-endian i16, -32768 unknown. Read into
  `Split.margin` (points, float, NaN unknown or absent): what teaches the
  value at a komi the game was not played with (train.py, `komi_vary`);
- `meta.json`: board size, planes, bytes a position, counts.

The planes written are src/player/network/planes.rs's (docs/network.md,
"What it reads"): 19 of them, `PLANES`. The network reads one more
(issue 56), `KOMI_PLANES`: the komi for the side to move over 20 on every
point of the board (KataGo's scale), made here from `.komi` by
`extra_inputs`, the one place the training makes the network's input from
what write_planes wrote, and by planes.rs in the engine. A network of
`PLANES` inputs (the files before it) is komi-blind, and `extra_inputs`
gives it the planes alone.
"""

import glob
import hashlib
import json
import os

import numpy as np
import torch

# src/player/network/planes.rs: PLANES, and the legal-move plane that
# masks the policy when accuracy is measured (the engine weighs legal moves
# only).
PLANES = 19
KOMI_PLANES = PLANES + 1
ON_BOARD_PLANE = 3
LEGAL_PLANE = 15
# KataGo's scale of the komi input: 7.5 is 0.375.
KOMI_SCALE = 20.0
VALUE_UNKNOWN = 255
OWNERSHIP_UNKNOWN = -128
KOMI_UNKNOWN = -128
MARGIN_UNKNOWN = -32768
NO_REPLY = 65535
# Game phases for the measures by move number: [lo, hi).
PHASES = [(0, 50), (50, 100), (100, 150), (150, 200), (200, 10**6)]


class Split:
    """One split of a planes folder in memory: packed planes (N, bytes),
    moves (N,), value bytes and move numbers (N,) where written, ownership
    bytes (N, points) where written; None for what the folder lacks."""

    def __init__(self, data, split, limit=None):
        meta = json.load(open(os.path.join(data, "meta.json")))
        self.size, self.planes = meta["size"], meta["planes"]
        self.bytes_per_position = (self.planes * self.size * self.size + 7) // 8
        bins = sorted(glob.glob(os.path.join(data, f"{split}-*.bin")))
        self.files = [os.path.basename(b) for b in bins]

        def each(ext, dtype, width=None):
            parts = []
            for b in bins:
                path = b[:-4] + ext
                if not os.path.exists(path):
                    return None
                a = np.fromfile(path, dtype=dtype)
                parts.append(a.reshape(-1, width) if width else a)
            if not parts:
                return np.zeros((0, width) if width else (0,), dtype)
            out = np.concatenate(parts)
            return out[:limit] if limit is not None else out

        self.x = each(".bin", np.uint8, self.bytes_per_position)
        self.moves = each(".lbl", "<u2").astype(np.int64)
        assert self.x.shape[0] == self.moves.shape[0], f"{data}/{split}: planes and moves disagree"
        replies = each(".rep", "<u2")
        self.replies = (np.where(replies == NO_REPLY, -1, replies.astype(np.int64)) if replies is not None
                        else np.full(self.moves.shape[0], -1, np.int64))
        self.values = each(".val", np.uint8)
        numbers = each(".num", "<u2")
        self.numbers = numbers.astype(np.int64) if numbers is not None else None
        self.ownership = each(".own", np.int8, self.size * self.size)
        komi = each(".komi", np.int8)
        if komi is None:
            komi = np.full(self.moves.shape[0], KOMI_UNKNOWN, np.int8)
        self.komi = np.where(komi == KOMI_UNKNOWN, np.nan, komi.astype(np.float32) / 2).astype(np.float32)
        margin = each(".mar", "<i2")
        if margin is None:
            margin = np.full(self.moves.shape[0], MARGIN_UNKNOWN, np.int16)
        self.margin = np.where(margin == MARGIN_UNKNOWN, np.nan, margin.astype(np.float32) / 2).astype(np.float32)

    def __len__(self):
        return self.x.shape[0]


def fingerprint(data):
    """Names a planes folder's content (its meta.json and file sizes): a
    checkpoint records which slice of data it was trained on."""
    h = hashlib.sha256(open(os.path.join(data, "meta.json"), "rb").read())
    for f in sorted(glob.glob(os.path.join(data, "*-*.*"))):
        h.update(f"{os.path.basename(f)} {os.path.getsize(f)}\n".encode())
    return h.hexdigest()[:16]


def unpack(packed, size, planes):
    """Bit-packed positions (N, bytes) as float planes (N, planes, size, size)."""
    shifts = torch.arange(8, device=packed.device, dtype=torch.uint8)
    bits = (packed.unsqueeze(-1) >> shifts) & 1
    bits = bits.flatten(1)[:, : planes * size * size]
    return bits.view(-1, planes, size, size).float()


def input_planes(written):
    """The network's input planes for `written` planes of write_planes: the
    stem's width and the weights header's planes word (the komi plane
    after them)."""
    return written + 1


def extra_inputs(x, komi, planes):
    """The input of a network of `planes` input planes from the planes
    write_planes wrote, `x` (N, written, size, size), and each position's
    komi for the side to move, `komi` (N,), NaN unknown (read as 0). A
    komi-blind network (`planes` the written count) gets `x` alone; else
    the komi plane follows: komi / KOMI_SCALE on the board's points."""
    if planes == x.shape[1]:
        return x
    if planes != x.shape[1] + 1:
        raise ValueError(f"a network of {planes} input planes, {x.shape[1]} written")
    k = torch.nan_to_num(komi.to(device=x.device, dtype=x.dtype), nan=0.0) / KOMI_SCALE
    return torch.cat([x, x[:, ON_BOARD_PLANE : ON_BOARD_PLANE + 1] * k.view(-1, 1, 1, 1)], dim=1)


def symmetry(x, s):
    """One of the 8 symmetries of the square applied to the last two axes
    (bit 4: transpose, then 1: flip columns, 2: flip rows)."""
    if s & 4:
        x = x.transpose(-1, -2)
    if s & 1:
        x = x.flip(-1)
    if s & 2:
        x = x.flip(-2)
    return x


def augment(x, moves, ownership, syms, replies=None):
    """Each position under its symmetry `syms[i]` (0-7), its move, its
    ownership target (N, size, size, or None) and its reply (N, -1 none;
    or None) moved with it. Returns the planes, the moves (pass stays
    pass), the ownership and the replies."""
    n, _, size, _ = x.shape

    def one_hot(points):
        board = torch.zeros(n, 1, size * size, device=x.device)
        on = (points >= 0) & (points < size * size)
        board[on.nonzero(as_tuple=True)[0], 0, points[on]] = 1.0
        return board.view(n, 1, size, size), on

    board, on_board = one_hot(moves)
    parts = [x, board]
    if replies is not None:
        reply_board, reply_on_board = one_hot(replies)
        parts.append(reply_board)
    if ownership is not None:
        parts.append(ownership.unsqueeze(1))
    both = torch.cat(parts, dim=1)
    out = torch.empty_like(both)
    for k in range(8):
        idx = (syms == k).nonzero(as_tuple=True)[0]
        if idx.numel():
            out[idx] = symmetry(both[idx], k)
    planes = x.shape[1]
    moved = out[:, planes].flatten(1).argmax(dim=1)
    moves = torch.where(on_board, moved, moves)
    if replies is not None:
        replies = torch.where(reply_on_board, out[:, planes + 1].flatten(1).argmax(dim=1), replies)
    own = out[:, -1] if ownership is not None else None
    return out[:, :planes].contiguous(), moves, own, replies


def golden_inputs(data, positions, planes):
    """The chosen positions of a golden planes folder (write_planes
    --held-out-every 0 --threads 1 of data/selfplay/19x19/game-0000.sgf:
    position i is the one before move i+1), as float64 input planes of a
    network of `planes` inputs."""
    split = Split(data, "train")
    chosen = [i for i in positions if i < len(split)]
    x = unpack(torch.from_numpy(split.x[chosen]), split.size, split.planes).double()
    return chosen, extra_inputs(x, torch.from_numpy(split.komi[chosen]), planes)
