/**
 * A child process for test/ops/logFlush.test.ts: a busy server's logging, with stdout a file.
 * Each turn of the event loop writes `perTurn` request.completed lines (and spends half a
 * millisecond, as requests would), for `turns` turns; then, before anything is flushed at exit,
 * it reports on stderr how many bytes of its lines the file already holds.
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
  // Two more turns for the last lines to be handed over, then the report.
  else setTimeout(() => process.stderr.write(`written ${fstatSync(1).size}\n`), 20)
}
setImmediate(oneTurn)
