/**
 * Everything that differs between the two database engines lives behind one typed object,
 * EngineOps (src/db/ports/index.ts), implemented by sqliteEngine and mongoEngine. The running
 * one is chosen once, from the configuration, and reached through engine(): callers write
 * `engine().renameTag(payload, …)`. Nothing else in the code base may branch on the engine.
 *
 * Only the running engine's module is loaded (a top-level await, before any caller can ask):
 * an SQLite process never loads mongodb, mongoose, bson (megabytes allocated at load; docs/benchmarks.md, *Measurements behind the code*) or
 * @payloadcms/db-mongodb, and a MongoDB process never loads the SQLite engine. Next's
 * bundle of payload.config.ts splits the two imports into chunks of their own the same way.
 */
import type { Payload } from 'payload'

import { configuredEngine } from '../platform/config'
import { timedMethods } from '../platform/metrics'
import type { ContentStore } from './contentTypes'
import type { Engine, EngineOps } from './ports'
import { stopChangeFeed, useChangeFeed } from './freshness'

export type { Engine, EngineOps } from './ports'
export type { Domain } from './freshness'
export { generation, rowFreshness, type RowFreshness, type RowStamp } from './freshness'
export type * from './contentTypes'
export type { ClaimResult, GraceSuccessor, RateLimitHit } from './authTypes'
export type { TagRenameInput, TagRenameResult } from './renameTypes'
export type { ReorderCollection, ReorderInput, ReorderResult } from './reorderTypes'
export type {
  ClaimedFollowUp,
  ClaimRequest,
  FollowUpDepth,
  FollowUpFailure,
  FollowUpKind,
  FollowUpRow,
  FollowUpStatus,
  StatusTransition,
} from './moderationTypes'
export { FOLLOW_UP_KINDS } from './moderationTypes'
export type { ModerationAction, ModerationEventInput, RecordedUpdate, RecordedUpdateResult } from './moderationTypes'
export { MODERATION_ACTIONS } from './moderationTypes'
/** The unique field a failed write collided on (Payload's report, or the running engine's). */
export const uniqueViolationField = (err: unknown): string | undefined => engine().uniqueViolationField(err)

const LOADERS: Record<Engine, () => Promise<EngineOps>> = {
  sqlite: async () => (await import('./sqlite/engine')).sqliteEngine,
  mongodb: async () => (await import('./mongo/engine')).mongoEngine,
}

/** An engine by name, loaded on demand (the running one, or another for test set-up). */
export const engineFor = (name: Engine): Promise<EngineOps> => LOADERS[name]()

/** One content store per Payload instance: its caches (word scores, pages) live as long as it. */
function withOneStorePerPayload(ops: EngineOps): EngineOps {
  const stores = new WeakMap<object, ContentStore>()
  return {
    ...ops,
    contentStore(payload: Payload) {
      let store = stores.get(payload.db)
      if (!store) {
        // Every store call is timed (db_operation_duration_seconds, src/platform/metrics).
        store = timedMethods(ops.contentStore(payload))
        stores.set(payload.db, store)
      }
      return store
    },
  }
}

// From the environment alone: parsing the whole configuration here would fix it before a test
// file's own variables (set after its imports) are in place.
const selected = withOneStorePerPayload(await engineFor(configuredEngine()))
useChangeFeed(selected.startChangeFeed)

/** The running engine (from the configuration, loaded with this module). */
export function engine(): EngineOps {
  return selected
}

/** Shutdown: Payload's connection (and its crons), then the service's own. */
export async function closeDatabase(payload: Payload): Promise<void> {
  stopChangeFeed(payload)
  await payload.destroy()
  await engine().closeOwnConnections(payload)
}
