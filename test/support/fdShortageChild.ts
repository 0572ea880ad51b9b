/**
 * Entry point of the descriptor-shortage test (test/db/logSyncFailure.test.ts), run under a low
 * `ulimit -n`: WAL databases written under the write gate with the engine's log sync, while every
 * free descriptor is taken. The sync keeps a log open from its first sync on, so only a write path
 * that has not opened its log yet needs a descriptor: each case below has a database of its own.
 * Prints one JSON line of what it saw.
 */
import { closeSync, openSync } from 'node:fs'

import Database from 'libsql'

import { writesTo } from '../../src/db/sqlite/writes'
import { OPEN_PATIENCE_MS } from '../../src/db/sqlite/writes/walSync'
import { logger } from '../../src/platform/logging'

const file = process.argv[2]!
/** A WAL database and its write path, as the engine's: the gate, the log's sync before a write is answered. */
function database(name: string) {
  const db = new Database(name)
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA synchronous = NORMAL')
  db.exec('CREATE TABLE t (n INTEGER)')
  const writes = writesTo(name)
  return {
    writes,
    insert: (n: number) => writes.under(() => db.prepare('INSERT INTO t (n) VALUES (?)').run(n)),
    rows: () => db.prepare('SELECT n FROM t ORDER BY n').raw(true).all(),
  }
}
const outcome = (write: Promise<unknown>) =>
  write.then(
    () => 'answered',
    (err: { status?: number; code?: string; details?: unknown; headers?: Record<string, string> }) => ({
      status: err.status,
      code: err.code,
      details: err.details,
      retryAfter: err.headers?.['Retry-After'],
    }),
  )

// Opened (and their first writes made, for the ones that need it) while descriptors are spare.
const open = database(file)
await open.insert(0) // its log opened and synced (the directory's entry too)
const waiting = database(`${file}-waiting`)
const refused = database(`${file}-refused`)
logger().warn('the logger is made before the descriptors run out')
const taken: number[] = []
/** Takes every free descriptor (again: one another part of this process let go meanwhile). */
function takeAll(): void {
  for (;;) {
    try {
      taken.push(openSync('/dev/null', 'r'))
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EMFILE') return
      throw err
    }
  }
}
takeAll()
// A log already open needs no descriptor: answered at once.
const kept = await outcome(open.insert(1))
// A log not open yet: a descriptor comes free 100 ms into the wait; the write is answered once it is synced.
const spare = taken.pop()!
setTimeout(() => closeSync(spare), 100)
const started = Date.now()
const first = await outcome(waiting.insert(1))
const firstMs = Date.now() - started
takeAll()
// None comes free: after the patience, that write's caller is told; writes are not stopped.
const second = await outcome(refused.insert(1))
const stopped = Boolean(refused.writes.stopped)
for (const fd of taken) closeSync(fd)
const third = await outcome(refused.insert(2))
const rows = [open.rows(), waiting.rows(), refused.rows()]
const opened = [open.writes.log.opened, waiting.writes.log.opened, refused.writes.log.opened]
process.stdout.write(`${JSON.stringify({ taken: taken.length, kept, first, firstMs, second, patienceMs: OPEN_PATIENCE_MS, stopped, third, rows, opened })}\n`)
