/**
 * The MongoDB migration lock, across processes and hosts: one document with a fixed _id in
 * `raw_migration_lock`, whose unique _id lets exactly one process insert it. It carries its
 * holder and an expiry on the server's clock (`$$NOW`, so hosts' clocks never matter),
 * pushed forward by a heartbeat while the work runs; a holder that died stops beating, and
 * once its expiry has passed the next process takes the lock over in the same single write
 * that would have created it. Released by deleting it (only by its holder).
 */
import { randomBytes } from 'node:crypto'
import os from 'node:os'
import type { ClientSession, Collection, Db } from 'mongodb'

import { logger } from '../../platform/logging'
import type { LockFence } from '../migrationRun'
import { serverCode } from './driverErrors'

export const MIGRATION_LOCK_COLLECTION = 'raw_migration_lock'
const LOCK_ID = 'migrations'
const DUPLICATE_KEY = 11000

export type LockTiming = { leaseMs: number; heartbeatMs: number; pollMs: number; remindMs: number }

export const LOCK_TIMING: LockTiming = { leaseMs: 60_000, heartbeatMs: 10_000, pollMs: 500, remindMs: 30_000 }

export type MigrationLockDoc = { _id: string; holder: string; pid: number; host: string; acquiredAt: Date; expiresAt: Date }

const lockOf = (db: Db): Collection<MigrationLockDoc> => db.collection<MigrationLockDoc>(MIGRATION_LOCK_COLLECTION)

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The one acquiring write: the filter matches only an expired lock; when there is none the
 * upsert inserts one, and when a live one exists that insert collides on _id (11000).
 * Answers the lock it replaced (null: there was none), or 'held'.
 */
async function tryAcquire(db: Db, me: Pick<MigrationLockDoc, 'holder' | 'pid' | 'host'>, leaseMs: number): Promise<MigrationLockDoc | null | 'held'> {
  try {
    return await lockOf(db).findOneAndUpdate(
      { _id: LOCK_ID, $expr: { $lt: ['$expiresAt', '$$NOW'] } },
      [{ $set: { ...me, acquiredAt: '$$NOW', expiresAt: { $add: ['$$NOW', leaseMs] } } }],
      { upsert: true, returnDocument: 'before' },
    )
  } catch (err) {
    if (serverCode(err) === DUPLICATE_KEY) return 'held'
    throw err
  }
}

/** The lease ran out and another process took the lock over: this one must stop before its next step. */
export class MigrationLockLost extends Error {
  constructor() {
    super('The migration lock was lost (its lease lapsed and another process holds it now); this start stops before its next migration.')
    this.name = 'MigrationLockLost'
  }
}

/**
 * Takes the lock (waiting while another live process holds it), runs `work`, releases it. `work`
 * gets a fence: `check()` throws MigrationLockLost once a heartbeat found the lock no longer this
 * holder's (or could not renew it before the lease ran out); `inTransaction` writes the lock
 * document, guarded by this holder, in a migration's own transaction (its session), so the
 * migration and its record commit only while this process holds the lock: a takeover meanwhile
 * conflicts with the transaction, and a lock already taken over aborts it (MigrationLockLost).
 */
export async function withMongoMigrationLock<T>(db: Db, work: (fence: LockFence) => Promise<T>, timing: LockTiming = LOCK_TIMING): Promise<T> {
  const me = { holder: `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`, pid: process.pid, host: os.hostname() }
  const started = Date.now()
  let reported: string | undefined
  let reportedAt = 0
  for (;;) {
    const previous = await tryAcquire(db, me, timing.leaseMs)
    if (previous !== 'held') {
      if (previous) logger().warn({ previous: { holder: previous.holder, expiresAt: previous.expiresAt } }, 'migrations.lock_expired_taken_over')
      break
    }
    const current = await lockOf(db).findOne({ _id: LOCK_ID })
    const key = current?.holder ?? 'unknown'
    const now = Date.now()
    if (key !== reported || now - reportedAt >= timing.remindMs) {
      const holder = current ? { host: current.host, pid: current.pid, since: current.acquiredAt, expiresAt: current.expiresAt } : null
      logger().info({ holder, waitedMs: now - started }, 'migrations.waiting')
      reported = key
      reportedAt = now
    }
    await sleep(timing.pollMs)
  }
  logger().info({ waitedMs: Date.now() - started }, 'migrations.lock_acquired')
  let lost = false
  // The lease as this process knows it: renewed only by a heartbeat the server confirmed.
  let leaseUntil = Date.now() + timing.leaseMs
  const heartbeat = setInterval(() => {
    const sent = Date.now()
    void lockOf(db)
      .updateOne({ _id: LOCK_ID, holder: me.holder }, [{ $set: { expiresAt: { $add: ['$$NOW', timing.leaseMs] } } }])
      .then((r) => {
        if (r.matchedCount === 1) leaseUntil = sent + timing.leaseMs
        else if (!lost) {
          lost = true
          logger().error({}, 'migrations.lock_lost')
        }
      })
      .catch((err: unknown) => logger().warn({ err }, 'migrations.lock_heartbeat_failed'))
  }, timing.heartbeatMs)
  heartbeat.unref()
  const check = () => {
    if (lost || Date.now() >= leaseUntil) throw new MigrationLockLost()
  }
  const fence: LockFence = {
    check,
    async inTransaction({ session }) {
      check()
      const renewed = await lockOf(db).updateOne(
        { _id: LOCK_ID, holder: me.holder },
        [{ $set: { expiresAt: { $add: ['$$NOW', timing.leaseMs] } } }],
        session ? { session: session as ClientSession } : {},
      )
      if (renewed.matchedCount !== 1) {
        lost = true
        logger().error({}, 'migrations.lock_lost')
        throw new MigrationLockLost()
      }
    },
  }
  try {
    return await work(fence)
  } finally {
    clearInterval(heartbeat)
    await lockOf(db).deleteOne({ _id: LOCK_ID, holder: me.holder })
    logger().info({}, 'migrations.lock_released')
  }
}
