/**
 * Start-up's schema step, shared by both engines: under the engine's cross-process lock, the
 * checked-in Payload migrations that this database has not run yet are run (Payload's own
 * `migrate`, as its `prodMigrations` would), then the caller's work that must not race either
 * (bootstrap: roles, facets, the first admin). Every process takes the lock in turn, so of N
 * processes started together on an empty database one migrates and the others wait, then find
 * nothing pending. The migration files live in src/db/<engine>/migrations/ (`npm run
 * migrate:create`); their list is imported statically, so bundles carry them.
 */
import type { Migration, Payload } from 'payload'

import { logger } from '../platform/logging'

/** A migration as `payload migrate:create` lists it in its folder's index.ts. */
export type MigrationFile = { name: string; up: (args: never) => Promise<void>; down: (args: never) => Promise<void> }

/** What a lock that can be lost (a lease) hands the work it runs. */
export type LockFence = {
  /** Throws once the lock is no longer this process's. */
  check(): void
  /**
   * Inside a migration's transaction, first: writes the lock document guarded by its holder, so the
   * migration commits only while this process holds the lock (a takeover meanwhile conflicts with
   * the transaction; a lock found lost aborts it).
   */
  inTransaction(args: { session?: unknown }): Promise<void>
}

/** Runs `work` holding the engine's migration lock (waiting for another process's turn); a lease hands it a fence. */
export type MigrationLock = <T>(work: (fence?: LockFence) => Promise<T>) => Promise<T>

export type MigrationPlan = {
  migrations: readonly MigrationFile[]
  lock: MigrationLock
  /** The names this database has run (its payload-migrations records). */
  applied: () => Promise<Set<string>>
  /** Holding the lock, before anything is read (SQLite: recognise a database the schema push made). */
  beforeMigrate?: () => Promise<void>
  /** Holding the lock, once the schema is current. */
  afterMigrate?: () => Promise<void>
}

/** A migration whose transaction first writes the lock (LockFence.inTransaction). */
const fenced = (m: MigrationFile, fence: LockFence): MigrationFile => ({
  ...m,
  up: async (args: never) => {
    await fence.inTransaction(args as { session?: unknown })
    await m.up(args)
  },
})

/** The names not yet run, in the folder's order (by timestamp). */
export const pendingOf = (migrations: readonly MigrationFile[], applied: Set<string>): MigrationFile[] =>
  migrations.filter((m) => !applied.has(m.name))

export async function migrateUnderLock(payload: Payload, plan: MigrationPlan): Promise<void> {
  await plan.lock(async (fence) => {
    await plan.beforeMigrate?.()
    const pending = pendingOf(plan.migrations, await plan.applied())
    if (pending.length === 0) {
      logger().info({ migrations: plan.migrations.length }, 'migrations.up_to_date')
    } else {
      const names = pending.map((m) => m.name)
      logger().info({ pending: names }, 'migrations.applying')
      const started = Date.now()
      // Payload's own runner: each migration and its payload-migrations record in one transaction.
      // Under a lease, one at a time, the lease checked before each and written inside each
      // migration's transaction: a holder that lost it commits nothing more and stops.
      const runs = fence ? pending.map((m) => [fenced(m, fence)]) : [pending]
      for (const run of runs) {
        fence?.check()
        await payload.db.migrate({ migrations: run as unknown as Migration[] })
      }
      logger().info({ applied: names, durationMs: Date.now() - started }, 'migrations.applied')
    }
    fence?.check()
    await plan.afterMigrate?.()
  })
}
