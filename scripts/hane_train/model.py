"""The one model definition: a residual trunk and every head the weights
format carries (policy with pass, value, ownership). What the engine
computes from the exported file (src/player/network/forward.rs) is this
model in eval mode with batch norm folded in (export.py); reference.py is
the same computation written from the file alone.

- Trunk: a `kernel` x `kernel` (5) convolution from the input planes to C
  channels, batch norm, ReLU; B residual blocks of two 3x3 convolutions,
  each with batch norm, ReLU after the first and after the sum.
- Global pooling (KataGo's, issue 56): every `gpool_every`-th block (the
  third, sixth, ...) also convolves its input (3x3) to G channels, batch
  norm, ReLU, takes each channel's mean and maximum over the board, and
  adds a linear map of those 2G numbers (no bias) to each of its first
  convolution's C channels before their ReLU: a bias the whole board sets,
  so that a point's features can depend on what happens far from it (a
  ko threat, the count, the komi). The map starts at 0, so a network
  loaded without it computes what it computed.
- Policy: a 1x1 convolution of the trunk to one logit a point (with bias);
  the pass logit from the trunk's mean over the board (a linear layer).
- Value: a 1x1 convolution to V channels, batch norm, ReLU; the mean over
  the points of each channel, then the max of each (2V numbers); a fully
  connected layer to H with bias, ReLU; one to a single logit, whose
  sigmoid is the side to move's chance of winning. Mean and max pooling
  keep it fully convolutional (docs/network.md, "The value head").
- Score (issue 56, `score_bins` S > 0): the value head's last layer gives
  S logits instead of one, one a final margin of the side to move (its
  area less the opponent's, komi not counted) from -(S - 1) / 2 to
  +(S - 1) / 2 points: the distribution of how the game ends. The win
  chance at any komi is read from it (`win_logit`: the share of margins
  that beat the komi), and so is the expected margin (`score_mean`), so
  that the win rate and the lead a client is shown are one judgement
  (the engine's lead is the median, `score_median`: the margin at which
  the game is even, which names the side the win chance names).
  Taught by the game's result (through `win_logit`, at its komi or a drawn
  one) and, where the final margin is known, by the margin itself
  (`margin_target`).
- Ownership: a 3x3 convolution to O channels with bias, ReLU, a 1x1
  convolution to one channel with bias; tanh of it is the owner of each
  point at the game's end (+1: the side to move's). Its sum over the board
  is the side to move's expected area less the opponent's.

- Reply (training only, never exported): the opponent's move after the
  move played, as the policy is made (a 1x1 convolution, the pass from the
  mean): KataGo's auxiliary opponent policy, a second target a position
  that makes the trunk read what the opponent threatens. `forward` is what
  the engine computes; `heads` adds the reply for the training.

Fully convolutional: the same weights run on every board size. V = 0 (and
H = 0) or O = 0 leave a head out, only so that the files of versions 1
and 2 can be read back; training always trains every head.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from .planes import PLANES

STEM_KERNEL = 5


class Block(nn.Module):
    def __init__(self, channels, gpool_channels=0):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)
        self.gpool = GlobalPooling(channels, gpool_channels) if gpool_channels else None

    def forward(self, x):
        h = self.bn1(self.conv1(x))
        if self.gpool is not None:
            h = h + self.gpool(x)
        return F.relu(x + self.bn2(self.conv2(F.relu(h))))


class GlobalPooling(nn.Module):
    """A block's board-wide bias: (N, C) from its input (N, C, size, size)."""

    def __init__(self, channels, gpool_channels):
        super().__init__()
        self.conv = nn.Conv2d(channels, gpool_channels, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(gpool_channels)
        self.fc = nn.Linear(2 * gpool_channels, channels, bias=False)
        nn.init.zeros_(self.fc.weight)

    def forward(self, x):
        g = F.relu(self.bn(self.conv(x)))
        pooled = torch.cat([g.mean(dim=(2, 3)), g.amax(dim=(2, 3))], dim=1)
        return self.fc(pooled).unsqueeze(-1).unsqueeze(-1)


def pooling_blocks(blocks, every):
    """The indices of the blocks with global pooling: every `every`-th
    (0: none)."""
    return [b for b in range(blocks) if every and b % every == every - 1]


class ValueHead(nn.Module):
    def __init__(self, channels, value_channels, hidden, score_bins=0):
        super().__init__()
        self.conv = nn.Conv2d(channels, value_channels, 1, bias=False)
        self.bn = nn.BatchNorm2d(value_channels)
        self.fc1 = nn.Linear(2 * value_channels, hidden)
        self.fc2 = nn.Linear(hidden, score_bins or 1)
        self.score_bins = score_bins

    def forward(self, trunk):
        """The win logit (N,), or with a score head the margins' logits (N, S)."""
        v = F.relu(self.bn(self.conv(trunk)))
        pooled = torch.cat([v.mean(dim=(2, 3)), v.amax(dim=(2, 3))], dim=1)
        out = self.fc2(F.relu(self.fc1(pooled)))
        return out if self.score_bins else out.squeeze(1)


# A score head's bins: one a point of the side to move's final margin,
# -361 to +361, every margin a 19x19 board can end with. A smaller board
# uses the middle ones; a larger one's margins beyond them count as the
# last bin's.
SCORE_BINS = 2 * 361 + 1
# The state_dict keys of the value head's last layer: a checkpoint from
# before the score head has it at one logit (train.py starts it afresh).
SCORE_KEYS = ("value.fc2.weight", "value.fc2.bias")
# Where a bin is ruled out in a log-sum (a finite stand-in for -infinity).
RULED_OUT = -1e4


def score_margins(bins, device=None):
    """The margin (points, float) of each of `bins` bins, lowest first."""
    return torch.arange(bins, device=device, dtype=torch.float32) - (bins - 1) // 2


def win_logit(value, komi):
    """The side to move's win logit at its komi `komi` (N,) points (NaN:
    0): the value head's own logit (N,), or from score logits (N, S) the
    log odds of a margin beating the komi, a margin that ties it counting
    half. In float32, from log-sums, so that a near-certain result keeps
    its gradient."""
    if value.dim() == 1:
        return value
    logits = value.float()
    total = score_margins(logits.shape[1], logits.device).view(1, -1) + torch.nan_to_num(komi.float(), nan=0.0).view(-1, 1)
    half = math.log(0.5)
    win = torch.where(total > 0, 0.0, torch.where(total == 0, half, RULED_OUT))
    loss = torch.where(total < 0, 0.0, torch.where(total == 0, half, RULED_OUT))
    return torch.logsumexp(logits + win, dim=1) - torch.logsumexp(logits + loss, dim=1)


def score_mean(score_logits):
    """The expected final margin of the side to move (N,), komi not counted."""
    p = torch.softmax(score_logits.float(), dim=1)
    return p @ score_margins(score_logits.shape[1], score_logits.device)


def score_median(score_logits):
    """The margin (N,) at which the distribution splits evenly, each bin's
    probability spread over the point around its margin: the engine's lead
    (score_belief.rs), which the win chance agrees with at a half-integer
    komi."""
    p = torch.softmax(score_logits.float(), dim=1)
    below = torch.cumsum(p, dim=1) - p
    i = ((below + p) < 0.5).sum(dim=1).clamp(max=p.shape[1] - 1)
    at = p.gather(1, i.unsqueeze(1)).squeeze(1).clamp(min=1e-12)
    before = below.gather(1, i.unsqueeze(1)).squeeze(1)
    return i.float() - (p.shape[1] - 1) // 2 - 0.5 + (0.5 - before) / at


def margin_target(margin, bins):
    """The score head's target (N, S) for known final margins `margin` (N,)
    points: a margin between two bins shared between them in proportion
    (the ownership-made margins are not whole points), one beyond the
    bins the last bin's."""
    reach = (bins - 1) // 2
    at = margin.float().clamp(-reach, reach) + reach
    low = at.floor().clamp(max=bins - 2)
    frac = (at - low).unsqueeze(1)
    target = torch.zeros(margin.shape[0], bins, device=margin.device)
    target.scatter_(1, low.long().unsqueeze(1), 1 - frac)
    target.scatter_add_(1, low.long().unsqueeze(1) + 1, frac)
    return target


def margin_loss(score_logits, margin):
    """Cross-entropy of the score logits against `margin_target`, a mean
    over the positions."""
    target = margin_target(margin, score_logits.shape[1])
    return -(target * F.log_softmax(score_logits.float(), dim=1)).sum(dim=1).mean()


class OwnershipHead(nn.Module):
    def __init__(self, channels, ownership_channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, ownership_channels, 3, padding=1)
        self.conv2 = nn.Conv2d(ownership_channels, 1, 1)

    def forward(self, trunk):
        """A logit a point (N, size, size); tanh of it is the owner."""
        return self.conv2(F.relu(self.conv1(trunk))).squeeze(1)


class Net(nn.Module):
    """forward(x) -> (policy logits (N, points + 1, pass last), value logit
    (N,) or with a score head the margins' logits (N, S), or None;
    ownership logit (N, size, size) or None)."""

    def __init__(self, blocks, channels, value_channels=32, hidden=64, ownership_channels=32, planes=PLANES, kernel=STEM_KERNEL,
                 gpool_channels=0, gpool_every=0, score_bins=0):
        super().__init__()
        if (value_channels == 0) != (hidden == 0):
            raise ValueError("a value head needs both V and H (or neither)")
        if (gpool_channels == 0) != (gpool_every == 0):
            raise ValueError("global pooling needs both its channels and its period (or neither)")
        self.shape = {"planes": planes, "channels": channels, "blocks": blocks, "kernel": kernel,
                      "value_channels": value_channels, "hidden": hidden, "ownership_channels": ownership_channels,
                      "gpool_channels": gpool_channels, "gpool_every": gpool_every, "score_bins": score_bins}
        self.stem = nn.Conv2d(planes, channels, kernel, padding=kernel // 2, bias=False)
        self.stem_bn = nn.BatchNorm2d(channels)
        pooling = pooling_blocks(blocks, gpool_every)
        self.blocks = nn.ModuleList(Block(channels, gpool_channels if b in pooling else 0) for b in range(blocks))
        self.policy_conv = nn.Conv2d(channels, 1, 1)
        self.pass_fc = nn.Linear(channels, 1)
        self.value = ValueHead(channels, value_channels, hidden, score_bins) if value_channels else None
        self.ownership = OwnershipHead(channels, ownership_channels) if ownership_channels else None
        self.reply_conv = nn.Conv2d(channels, 1, 1)
        self.reply_pass_fc = nn.Linear(channels, 1)

    def trunk(self, x):
        h = F.relu(self.stem_bn(self.stem(x)))
        for block in self.blocks:
            h = block(h)
        return h

    def forward(self, x):
        policy, value, ownership, _ = self.heads(x)
        return policy, value, ownership

    def heads(self, x):
        """forward's three and the reply's logits (N, points + 1, pass last)."""
        h = self.trunk(x)
        mean = h.mean(dim=(2, 3))
        policy = torch.cat([self.policy_conv(h).flatten(1), self.pass_fc(mean)], dim=1)
        value = self.value(h) if self.value is not None else None
        ownership = self.ownership(h) if self.ownership is not None else None
        reply = torch.cat([self.reply_conv(h).flatten(1), self.reply_pass_fc(mean)], dim=1)
        return policy, value, ownership, reply

    def conv_norms(self):
        """The (convolution, batch norm) pairs, in the file's order."""
        pairs = [(self.stem, self.stem_bn)]
        for b in self.blocks:
            pairs += [(b.conv1, b.bn1), (b.conv2, b.bn2)]
            if b.gpool is not None:
                pairs.append((b.gpool.conv, b.gpool.bn))
        if self.value is not None:
            pairs.append((self.value.conv, self.value.bn))
        return pairs


# The state_dict keys of the reply head: not in the weights file, and not
# in a checkpoint from before it (train.py starts them afresh).
REPLY_KEYS = ("reply_conv.weight", "reply_conv.bias", "reply_pass_fc.weight", "reply_pass_fc.bias")


def is_new_layer(key):
    """Whether a state_dict key is of a layer a checkpoint from before it
    lacks and that starts afresh without changing the network's function:
    the reply head (never exported) and global pooling (its map at 0)."""
    return key in REPLY_KEYS or ".gpool." in key


@torch.no_grad()
def calibrate_norms(model, x):
    """For a model loaded from a weights file (export.load_into: identity
    norms carrying the file's biases): gives each batch norm the statistics
    of real positions `x`, its scale and shift set so that the model still
    computes exactly the file's function in eval mode, and nearly so in
    training mode, where a batch's own statistics are used. Training then
    moves from the file's network rather than a scrambled one (the folded
    network alone diverged within three steps at a rate of 0.01)."""
    pairs = model.conv_norms()
    stats = {}
    hooks = [conv.register_forward_hook(lambda m, i, out, bn=bn: stats.__setitem__(bn, (out.mean(dim=(0, 2, 3)), out.var(dim=(0, 2, 3)))))
             for conv, bn in pairs]
    was_training = model.training
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
    model.train(was_training)
