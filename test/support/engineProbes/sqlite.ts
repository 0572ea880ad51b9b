/** Test-suite probes on SQLite (test/support/engineProbes.ts): the file, its WAL and lock file, a counter as stored. */
import { rmSync } from 'node:fs'

import { connection, sqliteFileOf } from '../../../src/db/sqlite/connection'
import type { EngineTestProbes } from './types'

export const sqliteTestProbes: EngineTestProbes = {
  async dropDatabase(db) {
    const file = sqliteFileOf(db.uri)
    // The migration lock file beside it too (src/db/sqlite/migrationLock), once no process holds it.
    for (const suffix of ['', '-wal', '-shm', '-migrations.lock', '-migrations.lock.holder']) rmSync(`${file}${suffix}`, { force: true })
  },
  async rateLimitPoints(_payload, db, key) {
    const row: unknown = connection(sqliteFileOf(db.uri)).prepare('SELECT points FROM raw_rate_limits WHERE key = ?').get(key)
    return row && typeof row === 'object' && 'points' in row ? Number(row.points) : undefined
  },
}
