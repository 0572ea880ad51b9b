/**
 * A lease on a recorded run (a tag rename's, ./tagRename): whoever carries a run on holds it, and
 * no one else may carry it until it expires. Taken with one findOneAndUpdate on an expired lease
 * (the server's clock), kept by a heartbeat, checked by a fence before each step: the shape of
 * the migration lock (./migrationLock), per run instead of per database.
 */
import { randomBytes } from 'node:crypto'
import os from 'node:os'
import type { Collection, Document, ObjectId } from 'mongodb'

import { logger } from '../../platform/logging'

export type LeaseTiming = { leaseMs: number; heartbeatMs: number; sweepMs: number }

/** As the migration lock's: a minute's lease, a heartbeat every 10 s; unfinished runs looked for every minute. */
export const RUN_LEASE: LeaseTiming = { leaseMs: 60_000, heartbeatMs: 10_000, sweepMs: 60_000 }

/** The fields a leased run carries: who carries it on, and until when (server clock). */
export type Leased = { _id: ObjectId; holder?: string; leaseUntil?: Date }

/** One per carry (a request's, or a claimed run's): a sweep never mistakes its own process's live run for its own. */
export const newHolder = () => `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`

/** The run's lease was lost (no heartbeat landed within it): another process may carry it on now. */
export class RunLeaseLost extends Error {
  constructor() {
    super('The lease on this run was lost; another process carries it on.')
    this.name = 'RunLeaseLost'
  }
}

/** The update that (re)sets a lease to `leaseMs` from the server's now. */
export const leaseFromNow = (holder: string, leaseMs: number): Document[] => [{ $set: { holder, leaseUntil: { $add: ['$$NOW', leaseMs] } } }]

/** Takes one run whose lease has expired (or that never had one), or null when every run is held. */
export async function claimExpiredRun<T extends Leased>(runs: Collection<T>, holder: string, timing: LeaseTiming): Promise<T | null> {
  const expired = { $or: [{ leaseUntil: { $exists: false } }, { $expr: { $lt: ['$leaseUntil', '$$NOW'] } }] }
  const before = await runs.findOneAndUpdate(expired as never, leaseFromNow(holder, timing.leaseMs), { returnDocument: 'before' })
  return (before as T | null) ?? null
}

export type HeldRun = {
  holder: string
  /** Throws RunLeaseLost once the lease may have passed to another process. */
  fence(): void
  /** Ends the heartbeat (before the run's own delete: a beat after it would read as lost). */
  stop(): void
  /** Lets the lease go at once (a carry that failed): the next sweep takes the run without waiting out the lease. */
  release(): Promise<void>
}

/** Keeps `holder`'s lease on run `id` alive while its carry runs. */
export function holdRun<T extends Leased>(runs: Collection<T>, id: ObjectId, holder: string, timing: LeaseTiming): HeldRun {
  let lost = false
  let leaseUntil = Date.now() + timing.leaseMs
  const mine = { _id: id, holder } as never
  const heartbeat = setInterval(() => {
    const sent = Date.now()
    void runs
      .updateOne(mine, [{ $set: { leaseUntil: { $add: ['$$NOW', timing.leaseMs] } } }])
      .then((r) => {
        if (r.matchedCount === 1) leaseUntil = sent + timing.leaseMs
        else if (!lost) {
          lost = true
          logger().error({ run: id.toHexString(), holder }, 'runs.lease_lost')
        }
      })
      .catch((err: unknown) => logger().warn({ err, run: id.toHexString() }, 'runs.lease_heartbeat_failed'))
  }, timing.heartbeatMs)
  heartbeat.unref()
  return {
    holder,
    fence() {
      if (lost || Date.now() >= leaseUntil) throw new RunLeaseLost()
    },
    stop() {
      clearInterval(heartbeat)
    },
    async release() {
      clearInterval(heartbeat)
      await runs.updateOne(mine, [{ $set: { leaseUntil: '$$NOW' } }]).catch(() => undefined)
    },
  }
}
