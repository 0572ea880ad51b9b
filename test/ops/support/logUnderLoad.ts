/**
 * A child process for test/ops/logFlush.test.ts: a busy server's logging, with stdout a file.
 * Each turn of the event loop writes `perTurn` request.completed lines (and spends half a
 * millisecond, as requests would), for `turns` turns; then, before anything is flushed at exit,
 * it reports on stderr how many bytes of its lines the file holds (see watchWrites).
 */
import { fstatSync } from 'node:fs'

import { logRequestCompleted } from '../../../src/platform/logging'

const turns = Number(process.argv[2] ?? 200)
const perTurn = Number(process.argv[3] ?? 100)

let turn = 0
function oneTurn(): void {
  for (let i = 0; i < perTurn; i++) {
    logRequestCompleted('info', { requestId: `req_${turn}_${i}`, route: 'GET /api/v1/content', userId: undefined, statusCode: 200, durationMs: 1 })
  }
  const until = performance.now() + 0.5
  while (performance.now() < until) {
    /* the turn's other work */
  }
  if (++turn < turns) setImmediate(oneTurn)
  else setImmediate(watchWrites)
}

/**
 * Then the report, after at most WRITES_AFTER more writes land (or none for QUIET_MS): counted in
 * writes, not milliseconds, so a machine busy with other work that delays each write's completion
 * does not read as lines left behind. A destination that keeps up is done within a few writes; one
 * that fell behind (4 KiB a write) is still ~half behind after them.
 */
const WRITES_AFTER = 20
const QUIET_MS = 500
let size = -1
let writes = 0
let quietSince = 0
function watchWrites(): void {
  const now = fstatSync(1).size
  if (now !== size) {
    if (size >= 0) writes++
    size = now
    quietSince = performance.now()
  }
  if (writes >= WRITES_AFTER || performance.now() - quietSince > QUIET_MS) process.stderr.write(`written ${size}\n`)
  else setImmediate(watchWrites)
}
setImmediate(oneTurn)
