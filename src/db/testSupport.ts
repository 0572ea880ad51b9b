/**
 * Engine-neutral probes for the test suite, so that tests never branch on the engine or reach
 * for an adapter's client: dropping a test file's database and reading a rate-limit counter
 * as stored. Not used by the service itself.
 */
import { rmSync } from 'node:fs'
import { Db, MongoClient } from 'mongodb'
import type { Payload } from 'payload'

import type { AppConfig } from '../config'
import { connection, sqliteFileOf } from './sqlite/connection'

/** Removes a database and everything in it: the MongoDB database, or the SQLite file and its WAL. */
export async function dropDatabase(db: AppConfig['database']): Promise<void> {
  if (db.engine === 'mongodb') {
    const client = new MongoClient(db.uri, { serverSelectionTimeoutMS: 10_000 })
    try {
      await client.db(db.name).dropDatabase()
    } finally {
      await client.close()
    }
    return
  }
  const file = sqliteFileOf(db.uri)
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true })
}

/** The stored hit count of rate-limit counter `key`, or undefined when there is none. */
export async function rateLimitPoints(payload: Payload, db: AppConfig['database'], key: string): Promise<number | undefined> {
  if (db.engine === 'mongodb') {
    const native: Db | undefined = payload.db.connection?.db
    if (!(native instanceof Db)) throw new Error('MongoDB is not connected')
    // rate-limiter-flexible's documents, key prefixed with `rl:` (src/db/mongo/authPrimitives).
    const doc = await native.collection<{ key: string; points: number }>('raw_rate_limits').findOne({ key: `rl:${key}` })
    return doc ? Number(doc.points) : undefined
  }
  const row = connection(sqliteFileOf(db.uri)).prepare('SELECT points FROM raw_rate_limits WHERE key = ?').get(key)
  return row === undefined ? undefined : Number((row as { points: number }).points)
}
