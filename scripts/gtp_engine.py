"""A GTP engine kept running, for the go scripts."""
import shutil
import subprocess

COLUMNS = "ABCDEFGHJKLMNOPQRST"
# GNU Go on the PATH, or where Debian puts it (/usr/games is not on every PATH); None if absent.
GNUGO = shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games")


def ask(engine, command):
    """Sends `command` to the GTP process `engine` and returns its answer's text (after `= `);
    raises RuntimeError when the engine answers an error (`? ...`) or stops."""
    engine.stdin.write(command + "\n")
    engine.stdin.flush()
    answer = []
    while True:
        line = engine.stdout.readline()
        if line == "":
            raise RuntimeError(f"the engine stopped on {command}")
        if line.strip():
            answer.append(line.strip())
        elif answer:
            text = "\n".join(answer)
            if text.startswith("?"):
                raise RuntimeError(f"the engine refused {command}: {text[1:].strip()}")
            return text[2:].strip()


class Engine:
    """A GTP engine process; `cwd` is its working folder (Pachi reads its pattern files there)."""

    def __init__(self, command, cwd=None):
        self.process = subprocess.Popen(command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True)

    def ask(self, command):
        return ask(self.process, command)

    def black_winrate(self, size, komi, moves):
        """Black's winning chance (0 to 1) after `moves` (GTP vertices, black first, alternately),
        as the engine's own search rates its best move (`lz-genmove_analyze`, which Tessera and
        Pachi both speak); the engine's search limit is set on its command line."""
        for command in (f"boardsize {size}", "clear_board", f"komi {komi}"):
            self.ask(command)
        colours = "BW"
        for index, vertex in enumerate(moves):
            self.ask(f"play {colours[index % 2]} {vertex}")
        to_move = colours[len(moves) % 2]
        # The interval (centiseconds) is longer than any search: only the final line comes.
        answer = self.ask(f"lz-genmove_analyze {to_move} 100000")
        infos = [line for line in answer.splitlines() if line.startswith("info")]
        if not infos:
            # Pachi reports nothing after a search of 1000 playouts or fewer.
            raise RuntimeError(f"no analysis after {' '.join(moves) or 'the empty board'}: too few playouts?")
        first = infos[-1].split("info ")[1].split()
        fields = dict(zip(first[0::2], first[1::2]))
        winrate = int(fields["winrate"]) / 10000
        return winrate if to_move == "B" else 1 - winrate

    def close(self):
        try:
            self.ask("quit")
        except (RuntimeError, BrokenPipeError):
            pass
        self.process.wait()
