// Drives tessera-gtp through @sabaki/gtp's Controller the way Sabaki does: identification,
// list_commands, board sync by `play`, `genmove`, then `kata-analyze B 50` parsed into
// moves / visits / win rates and interrupted by the next command.
// Usage: node sabaki.js <path to tessera-gtp>
'use strict'

const assert = require('assert')
const {Controller} = require('@sabaki/gtp')

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

    // Analysis: parse the info lines like Sabaki into moves, visits and win rates.
    const analyses = []
    const request = engine.sendCommand({name: analyze, args: ['W', '50']}, ({line}) => {
      if (!line.startsWith('info ')) return
      const variations = line
        .split(/\s*info\s+/)
        .slice(1)
        .map(group => {
          const [head, pv] = group.split(/\s+pv\s+/)
          const fields = {}
          const words = head.trim().split(/\s+/)
          for (let i = 0; i + 1 < words.length; i += 2) fields[words[i]] = words[i + 1]
          return {
            vertex: fields.move,
            visits: +fields.visits,
            winrate: +fields.winrate * 100,
            scoreLead: +fields.scoreLead,
            pv: (pv || '').trim().split(/\s+/)
          }
        })
      analyses.push(variations)
    })
    await new Promise(resolve => setTimeout(resolve, 1500))
    // The next command interrupts the analysis; its response comes after the analysis ends.
    const nameWhileAnalysing = engine.sendCommand({name: 'name'})
    const analysisResponse = await request
    assert(!analysisResponse.error, 'analysis failed')
    assert.strictEqual((await nameWhileAnalysing).content, 'Tessera')
    assert(analyses.length >= 2, `expected several analysis lines, got ${analyses.length}`)
    const last = analyses[analyses.length - 1]
    assert(last.length > 0, 'no variation parsed')
    for (const variation of last) {
      assert.match(variation.vertex, /^([A-HJ-T]\d+|pass)$/)
      assert(Number.isInteger(variation.visits) && variation.visits > 0)
      assert(variation.winrate >= 0 && variation.winrate <= 100, `win rate ${variation.winrate}`)
      assert(Math.abs(variation.scoreLead) <= 81 + 7, `score lead ${variation.scoreLead}`)
      assert.strictEqual(variation.pv[0], variation.vertex)
    }
    await ask('undo')
    console.log(`ok: genmove ${move}, ${analyses.length} analysis lines, best ${last[0].vertex} ` +
      `(${last[0].visits} visits, ${last[0].winrate.toFixed(1)}%)`)
  } finally {
    await engine.stop()
  }
}

main().catch(error => {
  console.error(error)
  process.exit(1)
})
