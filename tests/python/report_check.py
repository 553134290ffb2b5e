"""Opens `tessera match --report` pages in headless Chromium and checks what they show against
the records beside them, replayed here without Tessera's code: python-chess for chess, and
short replays of our own for xiangqi (ICCS moves from the FEN), gomoku (stones) and go (stones
and captures).

For each report: the running-score chart has one point per complete game pair of the records
and ends at their score; the SPRT chart is there when asked; the game list holds every game;
in the first and last game, the board after N moves (→ pressed N times), after stepping back
(←), at the end (End) and at the start (Home) holds the pieces or stones the replay gives, and
the score chart under the board has one point per scored move of the record.

Usage: report_check.py CHROMIUM CHROMEDRIVER [--sprt] DIR [[--sprt] DIR …]
"""
import io
import re
import sys
import tempfile
from pathlib import Path

import chess
import chess.pgn
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

# Chromium's own connections (updates, sync, field trials) have no network here: all off.
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,1600",
]

RESULT = re.compile(r"^(1-0|0-1|1/2-1/2|\*)$")


# --- records, read without Tessera's code -------------------------------------------------

def pgn_games(text):
    """Each game of a PGN text: (its text, tags, [(move, comment)], result)."""
    games = []
    for chunk in re.split(r"\n(?=\[Event )", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$', chunk, re.M))
        body = "\n".join(line for line in chunk.splitlines() if not line.startswith("["))
        moves, result = [], None
        for token in re.findall(r"\{[^}]*\}|[^\s{}]+", body):
            if token.startswith("{"):
                moves[-1] = (moves[-1][0], " ".join(token[1:-1].split()))
            elif RESULT.match(token):
                result = token
            elif not re.match(r"^\d+\.+$", token):
                moves.append((re.sub(r"^\d+\.+", "", token), None))
        games.append((chunk, tags, moves, result))
    return games


def sgf_games(text):
    """Each game of an SGF text (one game a line): (root properties, [(colour, point, comment)])."""
    games = []
    for line in text.splitlines():
        if not line.startswith("(;"):
            continue
        nodes = []
        for node in re.findall(r";((?:[A-Z]+(?:\[(?:[^\]\\]|\\.)*\])+)+)", line):
            nodes.append({name: values for name, values in re.findall(r"([A-Z]+)\[((?:[^\]\\]|\\.)*)\]", node)})
        moves = [("B" if "B" in node else "W", node.get("B", node.get("W")), node.get("C")) for node in nodes[1:]]
        games.append((nodes[0], moves))
    return games


def scored(comment):
    """Whether a move comment holds a score (`+0.25/12 0.5s`, `-M4`, `55.0%/400 1s`)."""
    return comment is not None and re.search(r"(^|\s)([+-]?\d+\.\d+|[+-]M\d+|\d+(\.\d+)?%)(/\d+)?(\s|$)", comment) is not None


class Game:
    """One recorded game: its round, first player, result, moves and boards after each move."""

    def __init__(self, round_, first_player, points_of_first_side, texts, comments, boards):
        self.round = round_
        self.first_player = first_player
        self.points_of_first_side = points_of_first_side
        self.texts = texts
        self.comments = comments
        self.boards = boards  # boards[n]: cells after n moves


def chess_boards(text, moves):
    """The boards of a chess game, replayed by python-chess from its PGN text."""
    game = chess.pgn.read_game(io.StringIO(text))
    board = game.board()
    boards = [chess_cells(board)]
    for move in game.mainline_moves():
        board.push(move)
        boards.append(chess_cells(board))
    assert len(boards) == len(moves) + 1, (len(boards), len(moves), text)
    return boards


def chess_cells(board):
    return "".join(
        (board.piece_at(chess.square(file, rank)).symbol() if board.piece_at(chess.square(file, rank)) else ".")
        for rank in range(7, -1, -1)
        for file in range(8)
    )


def fen_cells(fen, width):
    cells = ""
    for row in fen.split()[0].split("/"):
        for c in row:
            cells += "." * int(c) if c.isdigit() else c
    assert len(cells) % width == 0, fen
    return cells


def xiangqi_boards(tags, moves):
    cells = list(fen_cells(tags["FEN"], 9))
    boards = ["".join(cells)]
    for move, _ in moves:
        (from_file, from_rank), (to_file, to_rank) = (
            ("abcdefghi".index(move[i]), int(move[i + 1])) for i in (0, 2)
        )
        source, target = (9 - from_rank) * 9 + from_file, (9 - to_rank) * 9 + to_file
        assert cells[source] != ".", f"{move}: no piece to move"
        cells[target], cells[source] = cells[source], "."
        boards.append("".join(cells))
    return boards


def stone_boards(root, moves, captures):
    width, _, height = root.get("SZ", "19").partition(":")
    width = int(width)
    height = int(height or width)
    cells = ["."] * (width * height)
    boards = ["".join(cells)]
    for colour, point, _ in moves:
        if point and not (point == "tt" and width <= 19):
            x, y = ord(point[0]) - 97, ord(point[1]) - 97
            assert cells[y * width + x] == ".", f"{point} is taken"
            cells[y * width + x] = colour
            if captures:
                capture(cells, width, height, y * width + x)
        boards.append("".join(cells))
    return boards, width, height


def capture(cells, width, height, played):
    """Removes the strings next to `played` (and then its own) that have no liberty left."""
    def neighbours(cell):
        x, y = cell % width, cell // width
        return [ny * width + nx for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)) if 0 <= nx < width and 0 <= ny < height]

    def string(cell):
        colour, seen, todo = cells[cell], {cell}, [cell]
        while todo:
            for other in neighbours(todo.pop()):
                if other not in seen and cells[other] == colour:
                    seen.add(other)
                    todo.append(other)
        return seen

    def free(group):
        return any(cells[n] == "." for member in group for n in neighbours(member))

    enemy = "W" if cells[played] == "B" else "B"
    for other in neighbours(played):
        if cells[other] == enemy and not free(string(other)):
            for member in string(other):
                cells[member] = "."
    if not free(string(played)):
        for member in string(played):
            cells[member] = "."


def readable(point, kind, width, height):
    """An SGF point as the viewer names it: `h8` in gomoku, `D4` in go."""
    if not point or (point == "tt" and width <= 19):
        return "pass"
    x, y = ord(point[0]) - 97, ord(point[1]) - 97
    letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ" if kind == "go" else "abcdefghijklmnopqrstuvwxyz"
    return f"{letters[x]}{height - y}"


def read_records(folder):
    """The games of a report folder's records, in round order, and the game's kind."""
    games, kind = [], None
    pgn, sgf = folder / "games.pgn", folder / "games.sgf"
    if pgn.exists():
        for text, tags, moves, result in pgn_games(pgn.read_text()):
            xiangqi = tags.get("Variant") == "xiangqi"
            kind = "xiangqi" if xiangqi else "chess"
            boards = xiangqi_boards(tags, moves) if xiangqi else chess_boards(text, moves)
            points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
            first = tags["Red" if xiangqi else "White"]
            texts = [move for move, _ in moves]
            games.append(Game(int(tags["Round"]), first, points, texts, [c for _, c in moves], boards))
    else:
        for root, moves in sgf_games(sgf.read_text()):
            kind = "go" if root["GM"] == "1" else "gomoku"
            boards, width, height = stone_boards(root, moves, captures=kind == "go")
            result = root["RE"]
            points = 1.0 if result.startswith("B") else 0.0 if result.startswith("W") else 0.5
            texts = [readable(point, kind, width, height) for _, point, _ in moves]
            games.append(Game(int(root["RO"]), root["PB"], points, texts, [c for _, _, c in moves], boards))
    games.sort(key=lambda game: game.round)
    return kind, games


# --- the page -----------------------------------------------------------------------------

# What the page shows, read in one call: the board's pieces (data-piece at data-cell), its move
# number, the score chart's cursor and the highlighted move.
SHOWN = """
const board = document.getElementById("board");
const current = document.querySelector("#moves li.current .move-text");
return {
  cells: [...board.querySelectorAll("[data-piece]")].map((piece) => [Number(piece.dataset.cell), piece.dataset.piece]),
  ply: Number(board.dataset.ply),
  cursor: Number(document.querySelector("#eval-chart .eval-cursor").dataset.ply),
  move: current ? current.textContent : null,
};
"""


def expect_board(driver, game, ply, where):
    shown = driver.execute_script(SHOWN)
    assert shown["ply"] == ply, f"{where}: the board shows move {shown['ply']}, not {ply}"
    cells = dict(shown["cells"])
    assert len(cells) == len(shown["cells"]), f"{where}: two pieces on one cell"
    expected = {index: cell for index, cell in enumerate(game.boards[ply]) if cell != "."}
    assert cells == expected, f"{where}, game {game.round} after {ply} moves:\nshown    {sorted(cells.items())}\nexpected {sorted(expected.items())}"
    assert shown["cursor"] == ply, where
    if ply > 0:
        assert shown["move"] == game.texts[ply - 1], f"{where}: {shown['move']} is not {game.texts[ply - 1]}"


def rendered(element):
    size = element.size
    return size["width"] > 50 and size["height"] > 50


def percent(value):
    """As the report writes a share: one decimal at most, no trailing zero."""
    return f"{100 * value:.1f}".rstrip("0").rstrip(".")


def check_report(driver, folder, sprt):
    kind, games = read_records(folder)
    assert games, f"{folder}: no games in the records"
    driver.get((folder / "index.html").resolve().as_uri())
    title = driver.find_element(By.TAG_NAME, "h1").text
    first_engine = title.split(" vs ")[0]

    # The running score: a point per complete pair, ending at the first engine's score.
    by_round = {game.round: game for game in games}
    pairs = []
    for round_ in sorted(by_round):
        if round_ % 2 == 0 and round_ - 1 in by_round:
            pairs.append(sum(
                g.points_of_first_side if g.first_player == first_engine else 1 - g.points_of_first_side
                for g in (by_round[round_ - 1], by_round[round_])
            ) / 2)
    chart = driver.find_element(By.ID, "score-chart")
    assert rendered(chart), f"{folder}: the score chart is not drawn"
    line = chart.find_element(By.CSS_SELECTOR, "polyline.score-line")
    assert int(line.get_attribute("data-points")) == len(pairs), f"{folder}: {line.get_attribute('data-points')} points for {len(pairs)} pairs"
    assert len(line.get_attribute("points").split()) == len(pairs)
    score = percent(sum(pairs) / len(pairs))
    chart_title = chart.find_element(By.CSS_SELECTOR, "text.chart-title").text
    assert f": {score}% after {len(pairs)} pairs" in chart_title, f"{chart_title!r}: not {score}%"
    sprt_charts = driver.find_elements(By.ID, "sprt-chart")
    assert bool(sprt_charts) == sprt, f"{folder}: SPRT chart {'missing' if sprt else 'unexpected'}"
    if sprt:
        assert rendered(sprt_charts[0])
        llr = sprt_charts[0].find_element(By.CSS_SELECTOR, "polyline.llr-line")
        assert int(llr.get_attribute("data-points")) == len(pairs)
        assert sprt_charts[0].find_elements(By.CSS_SELECTOR, "line.bound-upper, line.bound-lower")

    rows = driver.find_elements(By.CSS_SELECTOR, "#game-list tr[data-game]")
    assert len(rows) == len(games), f"{folder}: {len(rows)} games listed, {len(games)} recorded"

    body = driver.find_element(By.TAG_NAME, "body")
    for index in sorted({0, len(games) - 1}):
        game = games[index]
        rows[index].click()
        expect_board(driver, game, 0, f"{folder} opened")
        eval_chart = driver.find_element(By.ID, "eval-chart")
        assert rendered(eval_chart) and rendered(driver.find_element(By.ID, "board"))
        points = driver.execute_script(
            'return [...document.querySelectorAll("#eval-chart polyline.eval-line")].reduce((sum, line) => sum + Number(line.dataset.points), 0)'
        )
        expected_points = sum(1 for comment in game.comments if scored(comment))
        assert points == expected_points, f"{folder} game {game.round}: {points} scores charted, {expected_points} recorded"
        assert kind != "chess" or expected_points > 0, "chess engines report scores"
        steps = min(12, len(game.texts))
        body.send_keys(Keys.ARROW_RIGHT * steps)
        expect_board(driver, game, steps, f"{folder} after →×{steps}")
        back = min(3, steps)
        body.send_keys(Keys.ARROW_LEFT * back)
        expect_board(driver, game, steps - back, f"{folder} after ←×{back}")
        body.send_keys(Keys.END)
        expect_board(driver, game, len(game.texts), f"{folder} at the end")
        body.send_keys(Keys.HOME)
        expect_board(driver, game, 0, f"{folder} at the start")
    print(f"{folder.name}: {kind}, {len(games)} games, {len(pairs)} pairs: the page shows what the records hold")


def main(arguments):
    chromium, chromedriver, rest = arguments[0], arguments[1], arguments[2:]
    reports, sprt = [], False
    for argument in rest:
        if argument == "--sprt":
            sprt = True
        else:
            reports.append((Path(argument), sprt))
            sprt = False
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    with tempfile.TemporaryDirectory() as profile:
        options.add_argument(f"--user-data-dir={profile}")
        driver = webdriver.Chrome(service=Service(chromedriver), options=options)
        try:
            for folder, sprt in reports:
                check_report(driver, folder, sprt)
            errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
            assert not errors, f"the pages logged errors: {errors}"
        finally:
            driver.quit()
    print("report check passed")


if __name__ == "__main__":
    main(sys.argv[1:])
