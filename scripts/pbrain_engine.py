"""A pbrain (Gomocup) engine kept running, for the gomoku scripts: each search starts a new game."""
import re
import subprocess
import sys

SIZE = 15
RULE_NUMBERS = {"freestyle": 0, "standard": 1, "renju": 4}


class Engine:
    """An engine process; `cwd` is its working folder (Rapfi reads a config.toml from there)."""

    def __init__(self, command, cwd=None):
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, bufsize=1, cwd=cwd)

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def search(self, stones, rule, depth=None, milliseconds=None):
        """Searches the position after `stones` (x, y; black first, then alternately) under `rule`
        (a key of RULE_NUMBERS), to `depth` or for `milliseconds` (one thread); returns the last
        score it reported (the side to move's view, as text: `+M23` is a forced win) and its move."""
        self.send(f"START {SIZE}")
        self.read_until(lambda line: line == "OK")
        limits = (("max_depth", depth), ("timeout_turn", 600000)) if depth else (("timeout_turn", milliseconds),)
        for key, value in (("rule", RULE_NUMBERS[rule]), *limits, ("timeout_match", 0), ("thread_num", 1)):
            self.send(f"INFO {key} {value}")
        self.send("BOARD")
        to_move = len(stones) % 2
        for index, (x, y) in enumerate(stones):
            self.send(f"{x},{y},{1 if index % 2 == to_move else 2}")
        self.send("DONE")
        score = None
        while True:
            line = self.read_line()
            # Ours: "MESSAGE depth D eval S ...", Rapfi: "MESSAGE Speed ... | Eval S | ...".
            found = re.search(r"\beval (\S+)", line) or re.search(r"\| Eval (\S+)", line)
            if found:
                score = found.group(1)
            if re.fullmatch(r"\d+,\d+", line):
                return score, tuple(map(int, line.split(",")))

    def read_line(self):
        line = self.process.stdout.readline()
        if not line:
            sys.exit(f"{self.process.args}: the engine stopped")
        return line.strip()

    def read_until(self, done):
        while not done(self.read_line()):
            pass

    def close(self):
        try:
            self.send("END")
            self.process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
