// Drives tessera-gtp through @sabaki/gtp's Controller the way Sabaki does: identification,
// list_commands, board sync by `play`, `genmove`, then `kata-analyze W 50` parsed by Sabaki's
// rules into moves / visits / win rates and interrupted by the next command; then
// `kata-analyze B 50 ownership true` on a board of two walls, whose ownership must give each
// side its own.
// Usage: node sabaki.js <path to tessera-gtp>
'use strict'

const assert = require('assert')
const {Controller} = require('@sabaki/gtp')

const VERTEX = /^(pass|[A-Za-z]\d+)$/

// An analysis line read by Sabaki's rules (src/modules/analysis.js, parseAnalysis): the line
// splits at `info`; in each part the principal variation is the trailing run of vertices (cut at
// the first pass), the words before it (the `pv` keyword aside) are key/value pairs, and a part
// whose move is not a vertex or that has no win rate is dropped. Returns the parts and the
// variations kept. (Sabaki asks for no ownership: `kata-analyze <color> <interval>` only. A
// KataGo-style line that ends with `ownership …` would lose its last variation under these rules,
// whoever the engine, so the ownership tail is read apart: see `splitOwnership`.)
function sabakiVariations(line) {
  const parts = line.split(/\s*info\s+/).slice(1).map(part => part.trim())
  const variations = []
  for (const part of parts) {
    const words = part.split(/\s+/)
    let start = words.length
    while (start > 0 && VERTEX.test(words[start - 1])) start--
    if (start === words.length) continue
    const pairs = words.slice(0, start - 1)
    const fields = {}
    for (let i = 0; i + 1 < pairs.length; i += 2) fields[pairs[i]] = pairs[i + 1]
    if (fields.move == null || fields.winrate == null || !/^[A-Za-z]\d+$/.test(fields.move)) continue
    const line = words.slice(start)
    const pass = line.indexOf('pass')
    variations.push({
      vertex: fields.move,
      visits: +fields.visits,
      winrate: +fields.winrate * 100,
      scoreLead: fields.scoreLead != null ? +fields.scoreLead : null,
      pv: pass < 0 ? line : line.slice(0, pass)
    })
  }
  return {parts: parts.length, variations}
}

// KataGo's ownership tail, as the programs that draw it (Lizzie, LizGoban) read it: the numbers
// after the last `ownership` word, one per point row by row from the top-left, for the side to
// move. Returns the line without it and the values (null when there is none).
function splitOwnership(line) {
  const at = line.search(/\s+ownership\s/)
  if (at < 0) return {analysis: line, ownership: null}
  const values = line.slice(at).trim().split(/\s+/).slice(1).map(Number)
  return {analysis: line.slice(0, at), ownership: values}
}

// Collects the `info` lines of one analysis command for `milliseconds`, then interrupts it with
// `name` as Sabaki's next command would. Returns the lines.
async function analyse(engine, name, args, milliseconds) {
  const lines = []
  const request = engine.sendCommand({name, args}, ({line}) => {
    if (line.startsWith('info ')) lines.push(line)
  })
  await new Promise(resolve => setTimeout(resolve, milliseconds))
  const next = engine.sendCommand({name: 'name'})
  assert(!(await request).error, `${name} ${args.join(' ')} failed`)
  assert.strictEqual((await next).content, 'Tessera', 'the next command is answered after the analysis')
  return lines
}

async function main() {
  const binary = process.argv[2]
  assert(binary, 'usage: node sabaki.js <tessera-gtp>')
  const engine = new Controller(binary, ['--move-time', '0.2', '--resign-threshold', '0'])
  engine.start()
  const ask = async (name, ...args) => {
    const response = await engine.sendCommand({name, args})
    assert(!response.error, `${name} ${args.join(' ')} failed: ${response.content}`)
    return response.content
  }
  try {
    assert.strictEqual(await ask('name'), 'Tessera')
    assert.match(await ask('version'), /^\d+\.\d+/)
    assert.strictEqual(await ask('protocol_version'), '2')
    const commands = (await ask('list_commands')).split('\n')
    for (const name of ['play', 'genmove', 'kata-analyze', 'lz-analyze', 'undo', 'komi']) {
      assert(commands.includes(name), `list_commands lacks ${name}`)
    }
    // Sabaki picks the first of analyze, kata-analyze, lz-analyze that the engine lists.
    const analyze = ['analyze', 'kata-analyze', 'lz-analyze'].find(c => commands.includes(c))
    assert.strictEqual(analyze, 'kata-analyze')

    // Board sync as Sabaki does it: clear, size, komi, then every move with play.
    await ask('boardsize', '9')
    await ask('clear_board')
    await ask('komi', '7')
    for (const [color, vertex] of [['B', 'E5'], ['W', 'C4'], ['B', 'G4'], ['W', 'D6']]) {
      await ask('play', color, vertex)
    }
    const illegal = await engine.sendCommand({name: 'play', args: ['B', 'E5']})
    assert(illegal.error, 'an occupied point must be refused')

    const move = await ask('genmove', 'B')
    assert.match(move, /^([A-HJ-T]\d+|pass|resign)$/i, `genmove answered ${move}`)

    // Analysis as Sabaki asks for it: every info line parses, every part into a variation.
    const lines = await analyse(engine, analyze, ['W', '50'], 1500)
    assert(lines.length >= 2, `expected several analysis lines, got ${lines.length}`)
    for (const line of lines) {
      const {parts, variations} = sabakiVariations(line)
      assert(parts > 0 && variations.length === parts, `Sabaki keeps ${variations.length} of ${parts}: ${line}`)
      assert.strictEqual(splitOwnership(line).ownership, null, 'no ownership unless asked')
    }
    const last = sabakiVariations(lines[lines.length - 1]).variations
    for (const variation of last) {
      assert.match(variation.vertex, /^([A-HJ-T]\d+|pass)$/)
      assert(Number.isInteger(variation.visits) && variation.visits > 0)
      assert(variation.winrate >= 0 && variation.winrate <= 100, `win rate ${variation.winrate}`)
      assert(Math.abs(variation.scoreLead) <= 81 + 7, `score lead ${variation.scoreLead}`)
      assert.strictEqual(variation.pv[0], variation.vertex)
    }
    await ask('undo')

    // Ownership on a board Black's wall on D and White's on F split: A–C are Black's, G–J White's.
    await ask('clear_board')
    for (let row = 1; row <= 9; row++) {
      await ask('play', 'B', `D${row}`)
      await ask('play', 'W', `F${row}`)
    }
    const owned = await analyse(engine, 'kata-analyze', ['B', '50', 'ownership', 'true'], 1200)
    assert(owned.length >= 1, 'no analysis line with ownership')
    let blackSide = 0
    for (const line of owned) {
      const {analysis, ownership} = splitOwnership(line)
      const {parts, variations} = sabakiVariations(analysis)
      assert(parts > 0 && variations.length === parts, `Sabaki keeps ${variations.length} of ${parts}: ${analysis}`)
      assert(ownership != null && ownership.length === 81, `81 ownership values: ${line}`)
      ownership.forEach((value, point) => {
        assert(Number.isFinite(value) && value >= -1 && value <= 1, `ownership ${value}`)
        const column = point % 9
        // Black is to move: positive values are Black's.
        if (column <= 2) assert(value > 0, `A–C are Black's, not ${value} at ${point}`)
        if (column >= 6) assert(value < 0, `G–J are White's, not ${value} at ${point}`)
        if (column <= 2) blackSide += value
      })
    }
    console.log(`ok: genmove ${move}, ${lines.length} analysis lines, best ${last[0].vertex} ` +
      `(${last[0].visits} visits, ${last[0].winrate.toFixed(1)}%); ${owned.length} with ownership, ` +
      `Black's side ${(blackSide / owned.length / 27).toFixed(2)}`)
  } finally {
    await engine.stop()
  }
}

main().catch(error => {
  console.error(error)
  process.exit(1)
})
