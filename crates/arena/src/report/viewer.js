// The game viewer of a Tessera match report: replays the games in #report-data on a drawn
// board, one move at a time, with the engines' scores as a chart under the board.
//
// Each game gives its board before the first move as a string of cells (row by row from the
// top-left corner: "." empty, a FEN letter for a piece, B or W for a stone) and, for each move,
// the cells it changes, so the viewer needs no rules of its own. Every piece drawn is an element
// with data-cell and data-piece, which is what the browser test reads back.
"use strict";
(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const games = JSON.parse(document.getElementById("report-data").textContent).games;
  const board = document.getElementById("board");
  const chart = document.getElementById("eval-chart");
  const list = document.getElementById("moves");
  const colours = { first: "#1f6fb4", second: "#d0661b", grid: "#dde1e6", ink: "#303840", mark: "#f2cf3b" };
  const state = { game: -1, ply: 0, frames: [] };

  function element(name, attributes, parent, text) {
    const node = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }

  function html(name, attributes, parent, text) {
    const node = document.createElement(name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }

  // The boards after 0, 1, … moves.
  function framesOf(game) {
    const frames = [game.start.split("")];
    for (const move of game.moves) {
      const cells = frames[frames.length - 1].slice();
      const changes = move[1];
      for (let i = 0; i < changes.length; i += 2) cells[changes[i]] = changes[i + 1];
      frames.push(cells);
    }
    return frames;
  }

  // Where each game draws its cells: centres of squares (chess) or intersections (the rest).
  function geometry(game) {
    const size = Math.max(28, Math.min(48, Math.floor(440 / Math.max(game.width, game.height))));
    const margin = Math.round(size * 0.8);
    const squares = game.kind === "chess";
    const span = (count) => (squares ? count : count - 1) * size;
    return {
      size,
      margin,
      width: span(game.width) + 2 * margin,
      height: span(game.height) + 2 * margin,
      x: (cell) => margin + (cell % game.width) * size + (squares ? size / 2 : 0),
      y: (cell) => margin + Math.floor(cell / game.width) * size + (squares ? size / 2 : 0),
    };
  }

  // Whether some font of the browser draws `text`: on a canvas it must differ from a character
  // that no font has (a private-use code point, drawn as the missing-glyph box).
  function drawable(text) {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 48;
    const context = canvas.getContext("2d");
    const pixels = (sample) => {
      context.clearRect(0, 0, 48, 48);
      context.font = "36px serif";
      context.fillText(sample, 4, 40);
      return context.getImageData(0, 0, 48, 48).data.join();
    };
    return pixels(text) !== pixels("\u{10fffd}");
  }

  // Piece symbols, or their FEN letters where no font has the symbols.
  const LETTERS = { K: "K", Q: "Q", R: "R", B: "B", N: "N", P: "P", A: "A", C: "C" };
  const CHESS = drawable("\u265a") ? { K: "\u265a", Q: "\u265b", R: "\u265c", B: "\u265d", N: "\u265e", P: "\u265f" } : LETTERS;
  const chineseGlyphs = drawable("帥");
  const XIANGQI_RED = chineseGlyphs ? { K: "帥", A: "仕", B: "相", N: "傌", R: "俥", C: "炮", P: "兵" } : LETTERS;
  const XIANGQI_BLACK = chineseGlyphs ? { K: "將", A: "士", B: "象", N: "馬", R: "車", C: "砲", P: "卒" } : LETTERS;

  function drawChessBoard(game, g) {
    for (let cell = 0; cell < 64; cell++) {
      const dark = (Math.floor(cell / 8) + (cell % 8)) % 2 === 1;
      element("rect", { x: g.x(cell) - g.size / 2, y: g.y(cell) - g.size / 2, width: g.size, height: g.size, fill: dark ? "#b58863" : "#f0d9b5" }, board);
    }
    for (let file = 0; file < 8; file++) {
      element("text", { x: g.x(56 + file), y: g.height - g.margin / 3, class: "coordinate" }, board, "abcdefgh"[file]);
    }
    for (let row = 0; row < 8; row++) {
      element("text", { x: g.margin / 2, y: g.y(row * 8) + 4, class: "coordinate" }, board, String(8 - row));
    }
  }

  function drawLines(game, g) {
    const right = g.x(game.width - 1);
    const bottom = g.y((game.height - 1) * game.width);
    for (let row = 0; row < game.height; row++) {
      const y = g.y(row * game.width);
      element("line", { x1: g.margin, y1: y, x2: right, y2: y, class: "grid-line" }, board);
    }
    for (let column = 0; column < game.width; column++) {
      const x = g.x(column);
      if (game.kind === "xiangqi" && column > 0 && column < 8) {
        // The river cuts the inner files.
        element("line", { x1: x, y1: g.margin, x2: x, y2: g.y(4 * 9), class: "grid-line" }, board);
        element("line", { x1: x, y1: g.y(5 * 9), x2: x, y2: bottom, class: "grid-line" }, board);
      } else {
        element("line", { x1: x, y1: g.margin, x2: x, y2: bottom, class: "grid-line" }, board);
      }
    }
  }

  function drawXiangqiBoard(game, g) {
    drawLines(game, g);
    for (const [top, bottom] of [[0, 2], [7, 9]]) {
      element("line", { x1: g.x(top * 9 + 3), y1: g.y(top * 9 + 3), x2: g.x(bottom * 9 + 5), y2: g.y(bottom * 9 + 5), class: "grid-line" }, board);
      element("line", { x1: g.x(top * 9 + 5), y1: g.y(top * 9 + 5), x2: g.x(bottom * 9 + 3), y2: g.y(bottom * 9 + 3), class: "grid-line" }, board);
    }
    const riverY = (g.y(4 * 9) + g.y(5 * 9)) / 2 + 6;
    element("text", { x: g.x(2), y: riverY, class: "river" }, board, chineseGlyphs ? "楚 河" : "river");
    element("text", { x: g.x(6), y: riverY, class: "river" }, board, chineseGlyphs ? "漢 界" : "river");
    for (let file = 0; file < 9; file++) {
      element("text", { x: g.x(81 + file), y: g.height - g.margin / 4, class: "coordinate" }, board, "abcdefghi"[file]);
    }
    for (let row = 0; row < 10; row++) {
      element("text", { x: g.margin / 3, y: g.y(row * 9) + 4, class: "coordinate" }, board, String(9 - row));
    }
  }

  function starPoints(game) {
    const stars = { 9: [2, 6, 4], 13: [3, 9, 6], 15: [3, 11, 7], 19: [3, 15, 9] }[game.width];
    if (!stars || game.width !== game.height) return [];
    const [low, high, middle] = stars;
    const points = [[low, low], [high, low], [low, high], [high, high], [middle, middle]];
    if (game.kind === "go" && game.width === 19) {
      points.push([middle, low], [middle, high], [low, middle], [high, middle]);
    }
    return points.map(([x, y]) => y * game.width + x);
  }

  function drawStoneBoard(game, g) {
    element("rect", { x: 0, y: 0, width: g.width, height: g.height, fill: "#e3b866" }, board);
    drawLines(game, g);
    for (const cell of starPoints(game)) {
      element("circle", { cx: g.x(cell), cy: g.y(cell), r: Math.max(2.5, g.size / 12), fill: colours.ink }, board);
    }
    // Go's columns skip I (GTP's letters); gomoku's run on.
    const letters = game.kind === "go" ? "ABCDEFGHJKLMNOPQRSTUVWXYZ" : "abcdefghijklmnopqrstuvwxyz";
    for (let column = 0; column < game.width; column++) {
      element("text", { x: g.x(column), y: g.height - g.margin / 4, class: "coordinate" }, board, letters[column]);
    }
    for (let row = 0; row < game.height; row++) {
      element("text", { x: g.margin / 3, y: g.y(row * game.width) + 4, class: "coordinate" }, board, String(game.height - row));
    }
  }

  function drawPiece(game, g, cell, piece, parent) {
    const group = element("g", { class: "piece", "data-cell": cell, "data-piece": piece }, parent);
    const [x, y] = [g.x(cell), g.y(cell)];
    if (game.kind === "chess") {
      const white = piece === piece.toUpperCase();
      element("text", { x, y: y + g.size * 0.3, class: "chess-piece " + (white ? "white" : "black"), "font-size": g.size * 0.82 }, group, CHESS[piece.toUpperCase()]);
    } else if (game.kind === "xiangqi") {
      const red = piece === piece.toUpperCase();
      element("circle", { cx: x, cy: y, r: g.size * 0.44, class: "xiangqi-piece " + (red ? "red" : "black") }, group);
      const glyphs = red ? XIANGQI_RED : XIANGQI_BLACK;
      element("text", { x, y: y + g.size * 0.17, class: "xiangqi-glyph " + (red ? "red" : "black"), "font-size": g.size * 0.46 }, group, glyphs[piece.toUpperCase()]);
    } else {
      element("circle", { cx: x, cy: y, r: g.size * 0.46, class: "stone " + (piece === "B" ? "black" : "white") }, group);
    }
  }

  function drawBoard() {
    const game = games[state.game];
    const g = geometry(game);
    board.replaceChildren();
    board.setAttribute("viewBox", `0 0 ${g.width} ${g.height}`);
    board.setAttribute("width", g.width);
    board.setAttribute("height", g.height);
    board.dataset.game = state.game;
    board.dataset.ply = state.ply;
    if (game.kind === "chess") drawChessBoard(game, g);
    else if (game.kind === "xiangqi") drawXiangqiBoard(game, g);
    else drawStoneBoard(game, g);
    const marks = state.ply > 0 ? game.moves[state.ply - 1][2] : [];
    const stones = game.kind === "go" || game.kind === "gomoku";
    if (!stones) {
      for (const cell of marks) {
        element("rect", { x: g.x(cell) - g.size / 2, y: g.y(cell) - g.size / 2, width: g.size, height: g.size, class: "mark" }, board);
      }
    }
    const pieces = element("g", { class: "pieces" }, board);
    state.frames[state.ply].forEach((piece, cell) => {
      if (piece !== ".") drawPiece(game, g, cell, piece, pieces);
    });
    if (stones) {
      for (const cell of marks) {
        element("circle", { cx: g.x(cell), cy: g.y(cell), r: g.size * 0.16, class: "last-stone" }, board);
      }
    }
  }

  // The scores under the board: the first side's expected score after each move, as each
  // engine saw it (one line per engine), 50% in the middle, the current move marked.
  function drawChart() {
    const game = games[state.game];
    const [width, height, left, right, top, bottom] = [440, 130, 34, 10, 12, 22];
    const moves = Math.max(game.moves.length, 1);
    const x = (ply) => left + (ply / moves) * (width - left - right);
    const y = (value) => top + (1 - value) * (height - top - bottom);
    chart.replaceChildren();
    chart.setAttribute("viewBox", `0 0 ${width} ${height}`);
    chart.setAttribute("width", width);
    chart.setAttribute("height", height);
    element("rect", { x: left, y: top, width: width - left - right, height: height - top - bottom, fill: "white", stroke: colours.grid }, chart);
    if (game.book > 0) {
      element("rect", { x: left, y: top, width: x(game.book) - left, height: height - top - bottom, class: "book-zone" }, chart);
    }
    for (const value of [0, 0.5, 1]) {
      element("line", { x1: left, x2: width - right, y1: y(value), y2: y(value), stroke: colours.grid }, chart);
      element("text", { x: left - 4, y: y(value) + 4, class: "chart-tick" }, chart, `${value * 100}%`);
    }
    element("text", { x: width - right, y: height - 6, class: "chart-tick end" }, chart, `move ${game.moves.length}`);
    for (const side of [0, 1]) {
      const points = [];
      game.moves.forEach((move, index) => {
        const mover = (game.firstMover + index) % 2;
        if (mover === side && move[3] !== null) points.push([x(index + 1), y(move[3])]);
      });
      const colour = side === 0 ? colours.first : colours.second;
      element("polyline", { class: "eval-line", "data-side": side, "data-points": points.length, points: points.map((p) => p.join(",")).join(" "), stroke: colour }, chart);
      for (const [px, py] of points) element("circle", { cx: px, cy: py, r: 1.8, fill: colour, class: "eval-point" }, chart);
      const legend = `${game.players[side]} (${game.sides[side]})`;
      element("text", { x: left + 4 + side * 200, y: height - 6, class: "chart-legend", fill: colour }, chart, legend);
    }
    element("line", { x1: x(state.ply), x2: x(state.ply), y1: top, y2: height - bottom, class: "eval-cursor", "data-ply": state.ply }, chart);
  }

  function describeMove(game, ply) {
    if (ply === 0) return game.book > 0 ? "The start: the opening's moves follow." : "The start.";
    const move = game.moves[ply - 1];
    const mover = (game.firstMover + ply - 1) % 2;
    const note = move[4] ? ` — ${move[4]}` : "";
    return `Move ${ply}: ${game.sides[mover]} (${game.players[mover]}) ${move[0]}${note}`;
  }

  function show() {
    const game = games[state.game];
    drawBoard();
    drawChart();
    document.getElementById("ply-label").textContent = `${state.ply} / ${game.moves.length}`;
    document.getElementById("move-info").textContent = describeMove(game, state.ply);
    for (const item of list.children) item.classList.toggle("current", Number(item.dataset.ply) === state.ply);
    const current = list.querySelector(".current");
    if (current) current.scrollIntoView({ block: "nearest" });
  }

  function go(ply) {
    const game = games[state.game];
    if (!game) return;
    state.ply = Math.max(0, Math.min(game.moves.length, ply));
    show();
  }

  function openGame(index) {
    const game = games[index];
    if (!game) return;
    state.game = index;
    state.ply = 0;
    state.frames = framesOf(game);
    const round = game.round === null ? "" : `Game ${game.round}: `;
    document.getElementById("game-title").textContent = `${round}${game.players[0]} (${game.sides[0]}) – ${game.players[1]} (${game.sides[1]})`;
    document.getElementById("game-facts").textContent = `${game.result}${game.termination ? ", " + game.termination : ""}; ${game.moves.length} moves, ${game.book} from the opening`;
    list.replaceChildren();
    game.moves.forEach((move, index) => {
      const item = html("li", { "data-ply": index + 1, class: index < game.book ? "book" : "" }, list);
      html("span", { class: "move-text" }, item, move[0]);
      if (move[4] && index >= game.book) html("span", { class: "move-note" }, item, move[4]);
      item.addEventListener("click", () => go(index + 1));
    });
    for (const row of document.querySelectorAll("#game-list tr[data-game]")) {
      row.classList.toggle("current", Number(row.dataset.game) === index);
    }
    if (game.round !== null) history.replaceState(null, "", `#game=${game.round}`);
    go(0);
  }

  function fillGameList() {
    const table = document.getElementById("game-list");
    const header = html("tr", {}, table);
    for (const title of ["game", "first", "second", "result", "ended", "moves"]) html("th", {}, header, title);
    games.forEach((game, index) => {
      const row = html("tr", { "data-game": index, tabindex: 0 }, table);
      html("td", {}, row, game.round === null ? "?" : String(game.round));
      html("td", {}, row, `${game.players[0]} (${game.sides[0]})`);
      html("td", {}, row, `${game.players[1]} (${game.sides[1]})`);
      html("td", {}, row, game.result);
      html("td", {}, row, game.termination);
      html("td", {}, row, String(game.moves.length));
      row.addEventListener("click", () => openGame(index));
    });
  }

  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("previous").addEventListener("click", () => go(state.ply - 1));
  document.getElementById("next").addEventListener("click", () => go(state.ply + 1));
  document.getElementById("last").addEventListener("click", () => go(Infinity));
  chart.addEventListener("click", (event) => {
    const game = games[state.game];
    const box = chart.getBoundingClientRect();
    const fraction = (event.clientX - box.left - (34 * box.width) / 440) / ((396 * box.width) / 440);
    go(Math.round(fraction * Math.max(game.moves.length, 1)));
  });
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement || event.altKey || event.ctrlKey || event.metaKey) return;
    const steps = { ArrowLeft: () => go(state.ply - 1), ArrowRight: () => go(state.ply + 1), Home: () => go(0), End: () => go(Infinity) };
    if (steps[event.key] && state.game >= 0) {
      event.preventDefault();
      steps[event.key]();
    }
  });

  fillGameList();
  if (games.length === 0) {
    document.getElementById("viewer").hidden = true;
    return;
  }
  const wanted = /game=(\d+)/.exec(location.hash);
  const chosen = wanted ? games.findIndex((game) => game.round === Number(wanted[1])) : -1;
  openGame(chosen >= 0 ? chosen : 0);
})();
