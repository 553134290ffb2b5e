#!/usr/bin/env python3
"""Trains the go move-prediction network on the data `policy_data` writes, and exports it in
the format `tessera-nnue`'s convolutional policy network reads (`crates/nnue/src/conv`).

    scripts/train-go-policy.py train TRAIN.bin VALID.bin WORKDIR [--samples N] [--channels C] [--blocks B]
    scripts/train-go-policy.py export WORKDIR/checkpoint.pt OUT.bin
    scripts/train-go-policy.py evaluate WORKDIR/checkpoint.pt VALID.bin

Needs PyTorch (`pip install torch`; CPU is enough). `train` resumes from WORKDIR/checkpoint.pt when
it exists, writes a checkpoint and an exported network (WORKDIR/network.bin) every few thousand
steps, and prints progress: samples seen, samples/s, the training loss and top-1 accuracy, and
from time to time the accuracy on VALID. The network: a 3×3 convolution from the input planes to C
channels, B residual blocks of two 3×3 convolutions, batch normalisation after each convolution
(folded into the weights on export), and a 1×1 convolution to one logit per point plus a learned
bias per point. Points the mover cannot sensibly play (the SENSIBLE plane) are masked out of the
softmax, as the search only asks about legal moves. Each batch is seen under one of the eight
symmetries of the board, drawn at random.
"""

import argparse
import math
import os
import struct
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

MAGIC_DATA = b"TGPD"
MAGIC_NETWORK = b"TCPN"
NETWORK_VERSION = 1
SENSIBLE_PLANE = 20
BATCH = 256


class Data:
    """A `policy_data` file, memory-mapped: planes and the point played, by record."""

    def __init__(self, path):
        with open(path, "rb") as file:
            header = file.read(12)
        if header[:4] != MAGIC_DATA:
            sys.exit(f"{path}: not a policy_data file")
        self.planes, self.size = struct.unpack("<II", header[4:])
        self.points = self.size * self.size
        self.plane_bytes = (self.points + 7) // 8
        record = self.planes * self.plane_bytes + 2
        raw = np.memmap(path, dtype=np.uint8, mode="r", offset=12)
        self.records = raw[: len(raw) // record * record].reshape(-1, record)

    def __len__(self):
        return len(self.records)

    def batch(self, indices):
        rows = self.records[np.sort(indices)]
        bits = np.unpackbits(rows[:, :-2].reshape(len(rows), self.planes, self.plane_bytes), axis=2)
        planes = bits[:, :, : self.points].reshape(len(rows), self.planes, self.size, self.size)
        moves = rows[:, -2].astype(np.int64) | (rows[:, -1].astype(np.int64) << 8)
        return torch.from_numpy(planes.astype(np.float32)), torch.from_numpy(moves)


def symmetry_tables(size):
    """For each of the 8 symmetries, the point each point goes to (matching `transform`)."""
    grid = torch.arange(size * size).reshape(size, size)
    tables = []
    for symmetry in range(8):
        moved = transform(grid[None, None], symmetry)[0, 0]
        table = torch.empty(size * size, dtype=torch.int64)
        table[moved.flatten()] = torch.arange(size * size)
        tables.append(table)
    return tables


def transform(planes, symmetry):
    """One of the 8 symmetries of the square on the last two axes."""
    if symmetry & 4:
        planes = planes.transpose(-1, -2)
    return torch.rot90(planes, symmetry & 3, dims=(-2, -1))


class Block(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        return F.relu(x + self.bn2(self.conv2(y)))


class PolicyNet(nn.Module):
    def __init__(self, planes, channels, blocks, size):
        super().__init__()
        self.shape = (planes, channels, blocks, size)
        self.conv = nn.Conv2d(planes, channels, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(channels)
        self.blocks = nn.ModuleList(Block(channels) for _ in range(blocks))
        self.head = nn.Conv2d(channels, 1, 1)
        self.point_bias = nn.Parameter(torch.zeros(size * size))

    def forward(self, planes):
        x = F.relu(self.bn(self.conv(planes)))
        for block in self.blocks:
            x = block(x)
        logits = self.head(x).flatten(1) + self.point_bias
        sensible = planes[:, SENSIBLE_PLANE].flatten(1)
        return logits.masked_fill(sensible == 0, -1e4)


def folded(conv, bn):
    """The weights (out, in, 3, 3) and bias of `conv` followed by `bn` in inference mode."""
    scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
    return conv.weight * scale[:, None, None, None], bn.bias - bn.running_mean * scale


def export(model, path):
    """Writes the network: header, little-endian f32 arrays (convolutions as [tap][in][out]),
    then the FNV-1a checksum of everything before it."""
    planes, channels, blocks, size = model.shape
    chunks = [MAGIC_NETWORK, struct.pack("<5I", NETWORK_VERSION, planes, channels, blocks, size)]

    def conv(weight, bias):
        taps = weight.permute(2, 3, 1, 0).reshape(9, weight.shape[1], weight.shape[0])
        chunks.append(taps.detach().numpy().astype("<f4").tobytes())
        chunks.append(bias.detach().numpy().astype("<f4").tobytes())

    with torch.no_grad():
        conv(*folded(model.conv, model.bn))
        for block in model.blocks:
            conv(*folded(block.conv1, block.bn1))
            conv(*folded(block.conv2, block.bn2))
        chunks.append(model.head.weight.reshape(channels).numpy().astype("<f4").tobytes())
        chunks.append(model.head.bias.numpy().astype("<f4").tobytes())
        chunks.append(model.point_bias.numpy().astype("<f4").tobytes())
    body = b"".join(chunks)
    temporary = path + ".part"
    with open(temporary, "wb") as file:
        file.write(body + struct.pack("<Q", fnv1a(body)))
    os.replace(temporary, path)


def fnv1a(data):
    """The 64-bit FNV-1a hash the network file ends with."""
    value = 0xCBF29CE484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value


def accuracy(model, data, count=20000):
    """Top-1 accuracy and mean loss on the first `count` records of `data` (no symmetry)."""
    model.eval()
    hits, loss, seen = 0, 0.0, 0
    with torch.no_grad():
        for start in range(0, min(count, len(data)), 1024):
            planes, moves = data.batch(np.arange(start, min(start + 1024, count, len(data))))
            logits = model(planes)
            hits += (logits.argmax(1) == moves).sum().item()
            loss += F.cross_entropy(logits, moves, reduction="sum").item()
            seen += len(moves)
    model.train()
    return hits / seen, loss / seen


def load(path):
    checkpoint = torch.load(path, weights_only=False)
    model = PolicyNet(*checkpoint["shape"])
    model.load_state_dict(checkpoint["model"])
    return model, checkpoint


def train(arguments):
    torch.set_num_threads(arguments.threads)
    data, valid = Data(arguments.train), Data(arguments.valid)
    os.makedirs(arguments.workdir, exist_ok=True)
    checkpoint_path = os.path.join(arguments.workdir, "checkpoint.pt")
    total_steps = arguments.samples // BATCH
    shape = (data.planes, arguments.channels, arguments.blocks, data.size)
    resuming = os.path.exists(checkpoint_path)
    model, checkpoint = load(checkpoint_path) if resuming else (PolicyNet(*shape), None)
    model = model.to(memory_format=torch.channels_last)
    optimizer = torch.optim.SGD(model.parameters(), lr=arguments.lr, momentum=0.9, nesterov=True, weight_decay=1e-4)
    step = 0
    if resuming:
        optimizer.load_state_dict(checkpoint["optimizer"])
        step = checkpoint["step"]
        total_steps = checkpoint["total_steps"]
        print(f"resumed at step {step} of {total_steps}", flush=True)
    tables = symmetry_tables(data.size)
    rng = np.random.default_rng(arguments.seed + step)
    started, seen_since, hits_since, loss_since = time.time(), 0, 0, 0.0
    print(f"{len(data)} training records, {len(valid)} validation; network {shape}", flush=True)
    while step < total_steps:
        # Warm up for 2% of the steps, then cosine decay to zero.
        warmup = max(1, total_steps // 50)
        factor = min(1.0, (step + 1) / warmup) * 0.5 * (1 + math.cos(math.pi * step / total_steps))
        for group in optimizer.param_groups:
            group["lr"] = arguments.lr * factor
        planes, moves = data.batch(rng.integers(0, len(data), BATCH))
        symmetry = int(rng.integers(8))
        planes, moves = transform(planes, symmetry), tables[symmetry][moves]
        # bfloat16 convolutions train about twice as fast on a CPU; the weights stay f32.
        with torch.autocast("cpu", dtype=torch.bfloat16):
            logits = model(planes.contiguous(memory_format=torch.channels_last)).float()
        loss = F.cross_entropy(logits, moves)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        step += 1
        seen_since += BATCH
        hits_since += (logits.argmax(1) == moves).sum().item()
        loss_since += loss.item() * BATCH
        if step % 200 == 0 or step == total_steps:
            rate = seen_since / (time.time() - started)
            line = (
                f"step {step}/{total_steps} samples {step * BATCH} {rate:.0f}/s "
                f"lr {arguments.lr * factor:.4f} loss {loss_since / seen_since:.3f} top1 {hits_since / seen_since:.3f}"
            )
            if step % 5000 == 0 or step == total_steps:
                valid_top1, valid_loss = accuracy(model, valid)
                line += f" valid top1 {valid_top1:.4f} loss {valid_loss:.3f}"
                torch.save(
                    {
                        "shape": shape,
                        "model": model.state_dict(),
                        "optimizer": optimizer.state_dict(),
                        "step": step,
                        "total_steps": total_steps,
                    },
                    checkpoint_path + ".part",
                )
                os.replace(checkpoint_path + ".part", checkpoint_path)
                model.eval()
                export(model, os.path.join(arguments.workdir, "network.bin"))
                model.train()
            print(line, flush=True)
            started, seen_since, hits_since, loss_since = time.time(), 0, 0, 0.0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    training = commands.add_parser("train")
    training.add_argument("train")
    training.add_argument("valid")
    training.add_argument("workdir")
    training.add_argument("--samples", type=int, default=3_000_000)
    training.add_argument("--channels", type=int, default=32)
    training.add_argument("--blocks", type=int, default=6)
    training.add_argument("--lr", type=float, default=0.05)
    training.add_argument("--seed", type=int, default=1)
    training.add_argument("--threads", type=int, default=2)
    exporting = commands.add_parser("export")
    exporting.add_argument("checkpoint")
    exporting.add_argument("out")
    evaluating = commands.add_parser("evaluate")
    evaluating.add_argument("checkpoint")
    evaluating.add_argument("valid")
    arguments = parser.parse_args()
    if arguments.command == "train":
        train(arguments)
    elif arguments.command == "export":
        model, _ = load(arguments.checkpoint)
        model.eval()
        export(model, arguments.out)
    else:
        model, _ = load(arguments.checkpoint)
        top1, loss = accuracy(model, Data(arguments.valid), count=10**9)
        print(f"top1 {top1:.4f} loss {loss:.3f}")


if __name__ == "__main__":
    main()
