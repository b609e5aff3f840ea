#!/usr/bin/env python3
"""PyTorch reference of Hydra's networks (docs/MODEL.md), parameter for parameter.

The modules here have exactly the parameter names of the C++ modules in model/, so a state dict
written by `hydra export CKPT --out FILE.pt` loads with `load_state_dict(..., strict=True)`.

    python scripts/model_reference.py check --net NET.pt [--grp GRP.pt] --io IO.pt
        compares the exported networks' outputs with the C++ outputs stored in IO.pt
        (written by tests/model/export_fixture); exit code 0 when they agree.
"""
import argparse
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

OBS_CHANNELS, TILES, ACTIONS, SCORE_CONTEXT, RANK_PERMS, OPPONENTS = 85, 34, 46, 16, 24, 3
GRP_FEATURES = 7
ILLEGAL_LOGIT = -1e9


class SEResBlock(nn.Module):
    """Pre-activation: GN -> Mish -> conv3 -> GN -> Mish -> conv3 -> SE (avg+max, shared MLP) -> + x."""

    def __init__(self, channels, se_hidden):
        super().__init__()
        self.norm1 = nn.GroupNorm(32, channels)
        self.conv1 = nn.Conv1d(channels, channels, 3, padding=1, bias=False)
        self.norm2 = nn.GroupNorm(32, channels)
        self.conv2 = nn.Conv1d(channels, channels, 3, padding=1, bias=False)
        self.se_fc1 = nn.Linear(channels, se_hidden)
        self.se_fc2 = nn.Linear(se_hidden, channels)

    def forward(self, x):
        h = self.conv1(F.mish(self.norm1(x)))
        h = self.conv2(F.mish(self.norm2(h)))

        def excite(pooled):
            return self.se_fc2(torch.relu(self.se_fc1(pooled)))

        gate = torch.sigmoid(excite(h.mean(-1)) + excite(h.amax(-1)))
        return x + h * gate.unsqueeze(-1)


class MlpHead(nn.Module):
    def __init__(self, n_in, hidden, n_out):
        super().__init__()
        self.fc1 = nn.Linear(n_in, hidden)
        self.fc2 = nn.Linear(hidden, n_out)

    def forward(self, x):
        return self.fc2(F.mish(self.fc1(x)))


class PolicyHead(nn.Module):
    def __init__(self, channels, policy_channels):
        super().__init__()
        self.conv = nn.Conv1d(channels, policy_channels, 1)
        self.fc = nn.Linear(policy_channels * TILES, ACTIONS)

    def forward(self, latent):
        return self.fc(F.mish(self.conv(latent)).flatten(1))


class HydraNet(nn.Module):
    def __init__(self, blocks=40, channels=256, se_ratio=16, policy_channels=64, value_hidden=512,
                 grp_hidden=256, tenpai_hidden=64):
        super().__init__()
        self.stem = nn.Conv1d(OBS_CHANNELS, channels, 3, padding=1, bias=False)
        se_hidden = max(1, channels // se_ratio)
        self.blocks = nn.ModuleList(SEResBlock(channels, se_hidden) for _ in range(blocks))
        self.trunk_norm = nn.GroupNorm(32, channels)
        self.policy = PolicyHead(channels, policy_channels)
        self.value = MlpHead(channels + SCORE_CONTEXT, value_hidden, 1)
        self.grp = MlpHead(channels + SCORE_CONTEXT, grp_hidden, RANK_PERMS)
        self.tenpai = MlpHead(channels, tenpai_hidden, OPPONENTS)
        self.danger = nn.Conv1d(channels, OPPONENTS, 1)

    @staticmethod
    def from_state_dict(sd):
        """Builds the architecture a state dict describes and loads it (strict)."""
        blocks = len({k.split(".")[1] for k in sd if k.startswith("blocks.")})
        channels = sd["stem.weight"].shape[0]
        net = HydraNet(blocks=blocks, channels=channels,
                       se_ratio=channels // sd["blocks.0.se_fc1.weight"].shape[0] if blocks else 16,
                       policy_channels=sd["policy.conv.weight"].shape[0],
                       value_hidden=sd["value.fc1.weight"].shape[0],
                       grp_hidden=sd["grp.fc1.weight"].shape[0],
                       tenpai_hidden=sd["tenpai.fc1.weight"].shape[0])
        net.load_state_dict(sd, strict=True)
        return net

    def forward(self, obs, score_context):
        x = self.stem(obs)
        for block in self.blocks:
            x = block(x)
        latent = F.mish(self.trunk_norm(x))
        pooled = latent.mean(-1)
        with_context = torch.cat([pooled, score_context.to(pooled.dtype)], 1)
        return (self.policy(latent), self.value(with_context), self.grp(with_context), self.tenpai(pooled),
                self.danger(latent))


class GrpNet(nn.Module):
    """GRU over [B,T,7] kyoku features -> per-step logits [B,T,24]."""

    def __init__(self, hidden=128, layers=2):
        super().__init__()
        self.gru = nn.GRU(GRP_FEATURES, hidden, num_layers=layers, batch_first=True)
        self.head = nn.Linear(hidden, RANK_PERMS)

    @staticmethod
    def from_state_dict(sd):
        layers = len([k for k in sd if k.startswith("gru.weight_ih_l")])
        net = GrpNet(hidden=sd["gru.weight_hh_l0"].shape[1], layers=layers)
        net.load_state_dict(sd, strict=True)
        return net

    def forward(self, seq):
        return self.head(self.gru(seq)[0])


ENCODER_VERSION = 1  # encoder::kVersion (encoder/include/hydra/encoder/layout.hpp)


def load_export(path):
    """A `hydra export` file as a state dict, after checking the observation layout it was
    trained on and removing that entry (it is not a weight)."""
    sd = torch.load(path, weights_only=True)
    version = int(sd.pop("_hydra.encoder_version", torch.tensor(1)))
    if version != ENCODER_VERSION:
        sys.exit(f"{path}: trained on observation layout (encoder) version {version}, "
                 f"this script reads version {ENCODER_VERSION}")
    return sd


def masked_log_softmax(logits, legal):
    return torch.log_softmax(logits.masked_fill(~legal, ILLEGAL_LOGIT), -1)


def focal_loss(logits, target, alpha=0.25, gamma=2.0):
    log_pt = target * F.logsigmoid(logits) + (1 - target) * F.logsigmoid(-logits)
    alpha_t = target * alpha + (1 - target) * (1 - alpha)
    return (-alpha_t * (1 - log_pt.exp()).pow(gamma) * log_pt).mean()


def total_loss(out, legal, action, value, grp, tenpai, danger, w=(1.0, 0.5, 0.1, 0.05, 0.05)):
    """The weighted loss of model/src/losses.cpp (no label masks)."""
    policy, v, g, t, d = out
    lp = -masked_log_softmax(policy, legal).gather(1, action.unsqueeze(1)).mean()
    lv = (v.reshape(value.shape) - value).pow(2).mean()
    lg = -torch.log_softmax(g, -1).gather(1, grp.unsqueeze(1)).mean()
    lt = F.binary_cross_entropy_with_logits(t, tenpai)
    ld = focal_loss(d, danger)
    return w[0] * lp + w[1] * lv + w[2] * lg + w[3] * lt + w[4] * ld


def max_rel(a, b):
    return ((a - b).abs().max() / b.abs().max().clamp_min(1e-12)).item()


def check(args):
    io = torch.load(args.io, weights_only=True)
    net = HydraNet.from_state_dict(load_export(args.net)).eval()
    with torch.no_grad():
        out = net(io["obs"], io["score_context"])
    worst = 0.0
    for name, got in zip(["policy", "value", "grp", "tenpai", "danger"], out):
        err = max_rel(got, io[name])
        worst = max(worst, err)
        print(f"{name:8s} max |python - c++| / max |c++| = {err:.3e}")
    if args.grp:
        grp = GrpNet.from_state_dict(load_export(args.grp)).eval()
        with torch.no_grad():
            err = max_rel(grp(io["grp_sequence"]), io["grp_logits"])
        worst = max(worst, err)
        print(f"grp_net  max |python - c++| / max |c++| = {err:.3e}")
    ok = worst <= args.tol
    print(f"{'OK' if ok else 'MISMATCH'}: worst relative difference {worst:.3e} (tolerance {args.tol:g})")
    return 0 if ok else 1


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check", help="compare exported weights' outputs with C++ outputs")
    c.add_argument("--net", required=True)
    c.add_argument("--grp")
    c.add_argument("--io", required=True)
    c.add_argument("--tol", type=float, default=1e-5)
    args = p.parse_args()
    torch.manual_seed(0)
    return check(args)


if __name__ == "__main__":
    sys.exit(main())
