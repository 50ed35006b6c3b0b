// Drives hane through @sabaki/gtp, the GTP client library of Sabaki, the
// way Sabaki's EngineSyncer uses it: attach, sync a game with
// ControllerStateTracker (komi, boardsize, moves, undo), genmove, analysis
// through queueCommand with a line subscriber, the analysis ended by
// Sabaki's abort (`protocol_version`), genmove_analyze, quit.
//
// Run with `npm test` in this folder after `cargo build --release`; the
// binary is ../../target/release/hane unless HANE_BIN says otherwise.

const {test} = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')
const fs = require('node:fs')
const {Controller, ControllerStateTracker} = require('@sabaki/gtp')

const binary =
  process.env.HANE_BIN ||
  path.resolve(__dirname, '..', '..', 'target', 'release', 'hane')

const VERTEX = /^[A-HJ-T](1[0-9]|[1-9])$/

// Sabaki's reading of one `info` line (see Sabaki's src/modules/analysis.js):
// blocks start with `info`, keys and values alternate, `pv` comes last and
// everything after it is moves. Winrates become percentages by the command's
// dialect: floats in 0..1 for kata-*, integers in 1/10000 otherwise.
function readInfoLine(line, kata) {
  assert.ok(line.startsWith('info '), `not an info line: ${line}`)
  return line
    .split(/\s*\binfo\s+/)
    .filter(block => block.trim() !== '')
    .map(block => {
      let tokens = block.trim().split(/\s+/)
      let pvAt = tokens.indexOf('pv')
      assert.ok(pvAt > 0, `no pv in block: ${block}`)
      let pairs = tokens.slice(0, pvAt)
      assert.equal(pairs.length % 2, 0, `keys and values must pair up: ${block}`)
      let fields = {}
      for (let i = 0; i < pairs.length; i += 2) fields[pairs[i]] = pairs[i + 1]
      let pv = tokens.slice(pvAt + 1)
      assert.ok(pv.length > 0, `empty pv: ${block}`)
      for (let mv of pv) assert.ok(VERTEX.test(mv) || mv === 'pass', mv)
      // pass is a candidate like any other, as KataGo writes it
      assert.ok(VERTEX.test(fields.move) || fields.move === 'pass', fields.move)
      assert.equal(pv[0], fields.move)
      let winrate = kata ? +fields.winrate * 100 : +fields.winrate / 100
      if (kata) assert.match(fields.winrate, /^\d\.\d+$/)
      else assert.match(fields.winrate, /^\d+$/)
      return {
        move: fields.move,
        visits: +fields.visits,
        winrate,
        scoreLead: fields.scoreLead == null ? null : +fields.scoreLead,
        order: +fields.order,
        pv,
      }
    })
}

function checkVariations(variations, legal) {
  assert.ok(variations.length > 0)
  variations.forEach((v, i) => {
    assert.equal(v.order, i)
    assert.ok(Number.isInteger(v.visits) && v.visits > 0, `visits ${v.visits}`)
    assert.ok(v.winrate >= 0 && v.winrate <= 100, `winrate ${v.winrate}`)
    assert.ok(v.move === 'pass' || legal.includes(v.move), `${v.move} is not legal`)
    if (i > 0) assert.ok(variations[i - 1].visits >= v.visits)
  })
}

// Starts an analysis as Sabaki's analyzeMove does, collects `count` info
// lines through the library's subscriber, then aborts as Sabaki does.
async function analyse(tracker, controller, name, args, count) {
  let lines = []
  let enough
  let gotEnough = new Promise(resolve => (enough = resolve))
  let done = tracker.queueCommand({name, args}, ({line}) => {
    if (line.startsWith('info ')) lines.push(line)
    if (lines.length >= count) enough()
  })
  await gotEnough
  let abortSent = Date.now()
  // Sabaki's sendAbort: any command ends the stream; it answers after it.
  let abort = controller.sendCommand({name: 'protocol_version'})
  let response = await done
  let answer = await abort
  assert.ok(Date.now() - abortSent < 2000, 'the abort is answered promptly')
  assert.equal(response.error, false)
  assert.equal(answer.error, false)
  assert.equal(answer.content, '2')
  // The response's content is every info line the stream carried.
  let content = response.content.split('\n').filter(l => l !== '')
  assert.ok(content.length >= count)
  assert.ok(content.every(l => l.startsWith('info ')), response.content)
  return lines
}

const moves = [
  ['B', 'E5'],
  ['W', 'D5'],
  ['B', 'C5'],
  ['W', 'E4'],
  ['B', 'D6'],
].map(args => ({name: 'play', args}))

test('hane works with @sabaki/gtp as Sabaki drives it', {timeout: 120000}, async () => {
  assert.ok(fs.existsSync(binary), `${binary} missing: run cargo build --release`)
  let controller = new Controller(binary, ['--threads', '1', '--time', '0.3'], {
    cwd: path.dirname(binary),
  })
  let tracker = new ControllerStateTracker(controller)
  let stderr = []
  controller.on('stderr', ({content}) => stderr.push(content))
  controller.start()

  // Attach: Sabaki writes these four at once.
  let [name, version, protocol, list] = await Promise.all(
    ['name', 'version', 'protocol_version', 'list_commands'].map(name =>
      controller.sendCommand({name})
    )
  )
  for (let r of [name, version, protocol, list]) assert.equal(r.error, false)
  assert.equal(name.content, 'hane')
  assert.match(version.content, /^\d+\.\d+\.\d+$/)
  assert.equal(protocol.content, '2')
  let commands = list.content.split('\n')
  for (let c of commands) assert.equal(c, c.trim(), 'no spaces around names')
  for (let c of ['lz-analyze', 'kata-analyze', 'lz-genmove_analyze', 'kata-genmove_analyze', 'undo'])
    assert.ok(commands.includes(c), `${c} not listed`)
  // Sabaki picks the first of its analyze_commands setting that is listed.
  assert.equal(
    ['analyze', 'kata-analyze', 'lz-analyze'].find(c => commands.includes(c)),
    'kata-analyze'
  )

  // Sync a game: komi, boardsize, then the moves.
  await tracker.sync({komi: 6.5, boardsize: [9, 9], history: moves})
  assert.deepEqual(tracker.state.boardsize, [9, 9])
  let black = await tracker.queueCommand({name: 'list_stones', args: ['black']})
  assert.equal(black.content, 'C5 E5 D6')

  // Genmove for White; the tracker records the move in its history.
  let generated = await tracker.queueCommand({name: 'genmove', args: ['W']})
  assert.equal(generated.error, false)
  assert.match(generated.content, /^([A-HJ-T]\d|pass)$/i)
  assert.equal(tracker.state.history.length, moves.length + 1)

  // Take it back the way Sabaki does: sync to the shorter history (undo).
  await tracker.sync({komi: 6.5, boardsize: [9, 9], history: moves})
  let white = await tracker.queueCommand({name: 'list_stones', args: ['white']})
  assert.equal(white.content, 'E4 D5')

  // Analysis for White (to move), both dialects.
  let legal = (await tracker.queueCommand({name: 'all_legal', args: ['W']})).content.split(' ')
  let lz = await analyse(tracker, controller, 'lz-analyze', ['W', '50'], 3)
  for (let line of lz) checkVariations(readInfoLine(line, false), legal)
  let kata = await analyse(tracker, controller, 'kata-analyze', ['W', '50'], 2)
  for (let line of kata) {
    let variations = readInfoLine(line, true)
    checkVariations(variations, legal)
    for (let v of variations) assert.ok(Number.isFinite(v.scoreLead))
  }
  // The search kept running between lines.
  let total = line => readInfoLine(line, false).reduce((sum, v) => sum + v.visits, 0)
  assert.ok(total(lz[lz.length - 1]) > total(lz[0]))
  // Lizzie's keys: White's favourite moves avoided at the root, and at
  // least five moves a line (unsearched ones with 0 visits).
  let favourites = readInfoLine(lz[lz.length - 1], false).slice(0, 2).map(v => v.move)
  let avoiding = await analyse(
    tracker,
    controller,
    'lz-analyze',
    ['W', '50', 'avoid', 'w', favourites.join(','), '1', 'minmoves', '5'],
    2
  )
  for (let line of avoiding) {
    let variations = readInfoLine(line, false)
    assert.ok(variations.length >= 5, line)
    for (let v of variations) {
      assert.ok(!favourites.includes(v.move), `${v.move} was avoided`)
      assert.ok(v.move === 'pass' || legal.includes(v.move), `${v.move} is not legal`)
    }
  }
  // The game is untouched by the analyses.
  white = await tracker.queueCommand({name: 'list_stones', args: ['white']})
  assert.equal(white.content, 'E4 D5')

  // genmove_analyze, as Sabaki's generateMove uses it: info lines, then
  // `play MOVE`; the tracker adds the move to its history.
  let played = null
  let infoLines = 0
  let response = await tracker.queueCommand(
    {name: 'kata-genmove_analyze', args: ['W', '10']},
    ({line}) => {
      if (line.startsWith('info ')) infoLines++
      if (line.startsWith('play ')) played = line.slice('play '.length)
    }
  )
  assert.equal(response.error, false)
  assert.ok(infoLines > 0, 'info lines while thinking')
  assert.ok(legal.includes(played), `played ${played}`)
  white = await tracker.queueCommand({name: 'list_stones', args: ['white']})
  assert.ok(white.content.split(' ').includes(played))
  assert.deepEqual(tracker.state.history[tracker.state.history.length - 1], {
    name: 'play',
    args: ['W', played],
  })

  // Quit as Controller.stop does: the engine answers and exits with status 0.
  let exited = new Promise(resolve => controller.process.once('exit', code => resolve(code)))
  let stopped = new Promise(resolve => controller.once('stopped', resolve))
  let quit = await controller.sendCommand({name: 'quit'})
  assert.equal(quit.error, false)
  assert.equal(quit.content, '')
  assert.equal(await exited, 0, stderr.join('\n'))
  await stopped
})
