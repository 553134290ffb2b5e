#!/usr/bin/env python3
"""Trains the go move-prediction network on the data `policy_data` writes, and exports it in
the format `tessera-nnue`'s convolutional policy network reads (`crates/nnue/src/conv`); then a
value head on it.

    scripts/train-go-policy.py train TRAIN.bin VALID.bin WORKDIR [--samples N] [--channels C] [--blocks B]
    scripts/train-go-policy.py export WORKDIR/checkpoint.pt OUT.bin
    scripts/train-go-policy.py evaluate WORKDIR/checkpoint.pt VALID.bin
    scripts/train-go-policy.py train-value NETWORK.bin TRAIN.bin VALID.bin WORKDIR [--samples N] [--train-blocks K]
    scripts/train-go-policy.py evaluate-network NETWORK.bin VALID.bin

Needs PyTorch (`pip install torch`; CPU is enough). `train` resumes from WORKDIR/checkpoint.pt when
it exists, writes a checkpoint and an exported network (WORKDIR/network.bin) every few thousand
steps, and prints progress: samples seen, samples/s, the training loss and top-1 accuracy, and
from time to time the accuracy on VALID. The network: a 3×3 convolution from the input planes to C
channels, B residual blocks of two 3×3 convolutions, batch normalisation after each convolution
(folded into the weights on export), and a 1×1 convolution to one logit per point plus a learned
bias per point. Points the mover cannot sensibly play (the SENSIBLE plane) are masked out of the
softmax, as the search only asks about legal moves. Each batch is seen under one of the eight
symmetries of the board, drawn at random.

`train-value` reads an exported network and adds a value head (a 1×1 convolution to 4 channels,
a hidden layer of 64, one logit: who wins, for the player to move), trained on the outcomes the
data holds (positions of games without a usable result are skipped). The tower stays as it is,
so the move prediction does not change, unless `--train-blocks K` also trains the last K blocks
and the policy head, with the policy's loss beside the value's. It writes WORKDIR/network.bin
(format version 2) and WORKDIR/value-checkpoint.pt, and resumes from the checkpoint.
`evaluate-network` reads a network file back and gives its move and winner accuracy.
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
DATA_VERSION = 2
NETWORK_VERSION = 1
VALUE_NETWORK_VERSION = 2
VALUE_CHANNELS = 4
VALUE_HIDDEN = 64
UNKNOWN_OUTCOME = 2
SENSIBLE_PLANE = 20
BATCH = 256


class Data:
    """A `policy_data` file, memory-mapped: planes, the point played and the outcome, by record."""

    def __init__(self, path):
        with open(path, "rb") as file:
            header = file.read(16)
        if header[:4] != MAGIC_DATA:
            sys.exit(f"{path}: not a policy_data file")
        version, self.planes, self.size = struct.unpack("<III", header[4:])
        if version != DATA_VERSION:
            sys.exit(f"{path}: policy_data format version {version}, this script reads {DATA_VERSION}")
        self.points = self.size * self.size
        self.plane_bytes = (self.points + 7) // 8
        record = self.planes * self.plane_bytes + 3
        raw = np.memmap(path, dtype=np.uint8, mode="r", offset=16)
        self.records = raw[: len(raw) // record * record].reshape(-1, record)

    def __len__(self):
        return len(self.records)

    def batch(self, indices):
        """Planes, moves and outcomes (1 won, 0 lost, 2 unknown) of the records at `indices`."""
        rows = self.records[np.sort(indices)]
        bits = np.unpackbits(rows[:, :-3].reshape(len(rows), self.planes, self.plane_bytes), axis=2)
        planes = bits[:, :, : self.points].reshape(len(rows), self.planes, self.size, self.size)
        moves = rows[:, -3].astype(np.int64) | (rows[:, -2].astype(np.int64) << 8)
        outcomes = rows[:, -1].astype(np.int64)
        return torch.from_numpy(planes.astype(np.float32)), torch.from_numpy(moves), torch.from_numpy(outcomes)

    def decided(self):
        """The indices of the records whose outcome is known."""
        return np.flatnonzero(self.records[:, -1] != UNKNOWN_OUTCOME)


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
    """Writes a trained `PolicyNet` with its batch normalisation folded in (format version 1)."""
    with torch.no_grad():
        tower = [folded(model.conv, model.bn)]
        for block in model.blocks:
            tower += [folded(block.conv1, block.bn1), folded(block.conv2, block.bn2)]
        write_network(path, model.shape, tower, model.head, model.point_bias)


def write_network(path, shape, tower, head, point_bias, value=None):
    """Writes a network file: the header, little-endian f32 arrays (the tower's convolutions,
    each (weight (out, in, 3, 3), bias), as [tap][in][out]; the policy head; the value head's
    three layers if `value` gives them, as version 2), then the FNV-1a checksum of everything
    before it. Written to a temporary file first, so that a reader never sees half a network."""
    planes, channels, blocks, size = shape
    if value is None:
        chunks = [MAGIC_NETWORK, struct.pack("<5I", NETWORK_VERSION, planes, channels, blocks, size)]
    else:
        words = (VALUE_NETWORK_VERSION, planes, channels, blocks, size, VALUE_CHANNELS, VALUE_HIDDEN)
        chunks = [MAGIC_NETWORK, struct.pack("<7I", *words)]

    def floats(tensor):
        chunks.append(tensor.detach().contiguous().numpy().astype("<f4").tobytes())

    with torch.no_grad():
        for weight, bias in tower:
            floats(weight.permute(2, 3, 1, 0).reshape(9, weight.shape[1], weight.shape[0]))
            floats(bias)
        floats(head.weight.reshape(channels))
        floats(head.bias)
        floats(point_bias)
        if value is not None:
            reduce, hidden, output = value
            # The 1×1 convolution as [tower channel][value channel].
            floats(reduce.weight.reshape(VALUE_CHANNELS, channels).t())
            floats(reduce.bias)
            floats(hidden.weight)
            floats(hidden.bias)
            floats(output.weight.reshape(VALUE_HIDDEN))
            floats(output.bias)
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
            planes, moves, _ = data.batch(np.arange(start, min(start + 1024, count, len(data))))
            logits = model(planes)
            hits += (logits.argmax(1) == moves).sum().item()
            loss += F.cross_entropy(logits, moves, reduction="sum").item()
            seen += len(moves)
    model.train()
    return hits / seen, loss / seen


class FoldedNet(nn.Module):
    """An exported network read back (its tower folded: convolutions with biases, as the engine
    computes it) with a value head: a 1×1 convolution, a hidden layer, one logit."""

    def __init__(self, planes, channels, blocks, size):
        super().__init__()
        self.shape = (planes, channels, blocks, size)
        self.tower = nn.ModuleList(
            nn.Conv2d(planes if index == 0 else channels, channels, 3, padding=1) for index in range(1 + 2 * blocks)
        )
        self.head = nn.Conv2d(channels, 1, 1)
        self.point_bias = nn.Parameter(torch.zeros(size * size))
        self.value_reduce = nn.Conv2d(channels, VALUE_CHANNELS, 1)
        self.value_hidden = nn.Linear(VALUE_CHANNELS * size * size, VALUE_HIDDEN)
        self.value_output = nn.Linear(VALUE_HIDDEN, 1)

    def trunk(self, planes):
        x = F.relu(self.tower[0](planes))
        for first, second in zip(self.tower[1::2], self.tower[2::2]):
            x = F.relu(x + second(F.relu(first(x))))
        return x

    def policy(self, x, planes):
        logits = self.head(x).flatten(1) + self.point_bias
        return logits.masked_fill(planes[:, SENSIBLE_PLANE].flatten(1) == 0, -1e4)

    def value(self, x):
        return self.value_output(F.relu(self.value_hidden(F.relu(self.value_reduce(x)).flatten(1)))).squeeze(1)

    def export(self, path):
        tower = [(conv.weight, conv.bias) for conv in self.tower]
        value = (self.value_reduce, self.value_hidden, self.value_output)
        write_network(path, self.shape, tower, self.head, self.point_bias, value)


def read_network(path):
    """A `FoldedNet` with the weights of the network file at `path` (its value head too, if the
    file has one; else a fresh one)."""
    with open(path, "rb") as file:
        data = file.read()
    if data[:4] != MAGIC_NETWORK or struct.unpack("<Q", data[-8:])[0] != fnv1a(data[:-8]):
        sys.exit(f"{path}: not a network file, or a corrupt one")
    version, planes, channels, blocks, size = struct.unpack("<5I", data[4:24])
    value_shape = struct.unpack("<2I", data[24:32]) if version == 2 else (0, 0)
    if version not in (1, 2) or value_shape not in ((0, 0), (VALUE_CHANNELS, VALUE_HIDDEN)):
        sys.exit(f"{path}: network format version {version}, value head {value_shape}: not readable here")
    values = torch.from_numpy(np.frombuffer(data[24 if version == 1 else 32 : -8], dtype="<f4").copy())
    model = FoldedNet(planes, channels, blocks, size)
    position = 0

    def take(*shape):
        nonlocal position
        count = math.prod(shape)
        position += count
        return values[position - count : position].reshape(shape)

    with torch.no_grad():
        for conv in model.tower:
            conv.weight.copy_(take(3, 3, conv.in_channels, channels).permute(3, 2, 0, 1))
            conv.bias.copy_(take(channels))
        model.head.weight.copy_(take(channels).reshape(1, channels, 1, 1))
        model.head.bias.copy_(take(1))
        model.point_bias.copy_(take(size * size))
        if value_shape != (0, 0):
            model.value_reduce.weight.copy_(take(channels, VALUE_CHANNELS).t().reshape(VALUE_CHANNELS, channels, 1, 1))
            model.value_reduce.bias.copy_(take(VALUE_CHANNELS))
            model.value_hidden.weight.copy_(take(VALUE_HIDDEN, VALUE_CHANNELS * size * size))
            model.value_hidden.bias.copy_(take(VALUE_HIDDEN))
            model.value_output.weight.copy_(take(1, VALUE_HIDDEN))
            model.value_output.bias.copy_(take(1))
    if position != len(values):
        sys.exit(f"{path}: {len(values)} weights, the header's sizes make {position}")
    return model


def evaluate_network(model, data, count=20000):
    """On the first `count` records of `data`: the move's top-1 accuracy, and on those with a
    known outcome the share whose winner the value names and the value's loss."""
    model.eval()
    hits, seen, right, value_loss, decided = 0, 0, 0, 0.0, 0
    with torch.no_grad():
        for start in range(0, min(count, len(data)), 1024):
            planes, moves, outcomes = data.batch(np.arange(start, min(start + 1024, count, len(data))))
            x = model.trunk(planes)
            hits += (model.policy(x, planes).argmax(1) == moves).sum().item()
            seen += len(moves)
            known = outcomes != UNKNOWN_OUTCOME
            value, won = model.value(x)[known], outcomes[known].float()
            right += ((value > 0).float() == won).sum().item()
            value_loss += F.binary_cross_entropy_with_logits(value, won, reduction="sum").item()
            decided += len(won)
    model.train()
    return hits / seen, right / max(decided, 1), value_loss / max(decided, 1)


def train_value(arguments):
    torch.set_num_threads(arguments.threads)
    data, valid = Data(arguments.train), Data(arguments.valid)
    decided = data.decided()
    os.makedirs(arguments.workdir, exist_ok=True)
    checkpoint_path = os.path.join(arguments.workdir, "value-checkpoint.pt")
    model = read_network(arguments.network)
    # The value head learns; the last K blocks and the policy head follow at a tenth of its rate.
    def parameters(*modules):
        return [parameter for module in modules for parameter in module.parameters()]

    tuned = arguments.train_blocks > 0
    groups = [{"params": parameters(model.value_reduce, model.value_hidden, model.value_output), "scale": 1.0}]
    if tuned:
        last_blocks = model.tower[len(model.tower) - 2 * arguments.train_blocks :]
        groups.append({"params": parameters(*last_blocks, model.head) + [model.point_bias], "scale": 0.1})
    trained = {id(parameter) for group in groups for parameter in group["params"]}
    for parameter in model.parameters():
        parameter.requires_grad = id(parameter) in trained
    optimizer = torch.optim.AdamW(groups, lr=arguments.lr, weight_decay=1e-4)
    total_steps, step = arguments.samples // BATCH, 0
    if os.path.exists(checkpoint_path):
        checkpoint = torch.load(checkpoint_path, weights_only=False)
        model.load_state_dict(checkpoint["model"])
        optimizer.load_state_dict(checkpoint["optimizer"])
        step, total_steps = checkpoint["step"], checkpoint["total_steps"]
        print(f"resumed at step {step} of {total_steps}", flush=True)
    tables = symmetry_tables(data.size)
    rng = np.random.default_rng(arguments.seed + step)
    print(f"{len(decided)} training records with an outcome, {len(valid)} validation; network {model.shape}, "
          f"training the value head and {arguments.train_blocks} blocks", flush=True)
    started, seen_since, loss_since, right_since = time.time(), 0, 0.0, 0
    while step < total_steps:
        factor = min(1.0, (step + 1) / max(1, total_steps // 50)) * 0.5 * (1 + math.cos(math.pi * step / total_steps))
        for group in optimizer.param_groups:
            group["lr"] = arguments.lr * factor * group["scale"]
        planes, moves, outcomes = data.batch(decided[rng.integers(0, len(decided), BATCH)])
        symmetry = int(rng.integers(8))
        planes, moves = transform(planes, symmetry).contiguous(), tables[symmetry][moves]
        with torch.autocast("cpu", dtype=torch.bfloat16):
            if tuned:
                x = model.trunk(planes)
            else:
                with torch.no_grad():
                    x = model.trunk(planes)
            value = model.value(x).float()
            won = outcomes.float()
            loss = F.binary_cross_entropy_with_logits(value, won)
            if tuned:
                loss = loss + F.cross_entropy(model.policy(x, planes).float(), moves)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        step += 1
        seen_since += BATCH
        loss_since += loss.item() * BATCH
        right_since += ((value > 0).float() == won).sum().item()
        if step % 200 == 0 or step == total_steps:
            rate = seen_since / (time.time() - started)
            line = (f"step {step}/{total_steps} samples {step * BATCH} {rate:.0f}/s "
                    f"loss {loss_since / seen_since:.4f} winner {right_since / seen_since:.3f}")
            if step % 2000 == 0 or step == total_steps:
                top1, winner, value_loss = evaluate_network(model, valid)
                line += f" valid top1 {top1:.4f} winner {winner:.4f} value loss {value_loss:.4f}"
                state = {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step,
                         "total_steps": total_steps}
                torch.save(state, checkpoint_path + ".part")
                os.replace(checkpoint_path + ".part", checkpoint_path)
                model.export(os.path.join(arguments.workdir, "network.bin"))
            print(line, flush=True)
            started, seen_since, loss_since, right_since = time.time(), 0, 0.0, 0


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
        planes, moves, _ = data.batch(rng.integers(0, len(data), BATCH))
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


def training_command(commands, name, positional, samples, lr):
    """A training subcommand: its positional arguments and the options every run has."""
    command = commands.add_parser(name)
    for argument in positional:
        command.add_argument(argument)
    command.add_argument("--samples", type=int, default=samples)
    command.add_argument("--lr", type=float, default=lr)
    command.add_argument("--seed", type=int, default=1)
    command.add_argument("--threads", type=int, default=2)
    return command


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    training = training_command(commands, "train", ["train", "valid", "workdir"], samples=3_000_000, lr=0.05)
    training.add_argument("--channels", type=int, default=32)
    training.add_argument("--blocks", type=int, default=6)
    exporting = commands.add_parser("export")
    exporting.add_argument("checkpoint")
    exporting.add_argument("out")
    evaluating = commands.add_parser("evaluate")
    evaluating.add_argument("checkpoint")
    evaluating.add_argument("valid")
    value = training_command(commands, "train-value", ["network", "train", "valid", "workdir"], samples=2_000_000, lr=0.001)
    value.add_argument("--train-blocks", type=int, default=0)
    network_evaluation = commands.add_parser("evaluate-network")
    network_evaluation.add_argument("network")
    network_evaluation.add_argument("valid")
    arguments = parser.parse_args()
    if arguments.command == "train":
        train(arguments)
    elif arguments.command == "train-value":
        train_value(arguments)
    elif arguments.command == "evaluate-network":
        top1, winner, value_loss = evaluate_network(read_network(arguments.network), Data(arguments.valid), 10**9)
        print(f"top1 {top1:.4f} winner {winner:.4f} value loss {value_loss:.4f}")
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
