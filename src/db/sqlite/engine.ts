/** The embedded SQLite engine: each port of src/db/ports/index.ts from its own file, every write under this process's write gate. */
import type { ContentStore } from '../contentTypes'
import { VIEW_DOMAIN } from '../freshness'
import type { EngineOps } from '../ports'
import { generation, rowFreshness } from '../freshness'
import { sqliteChangeFeed } from './changeFeed'
import { sqliteContentStore } from './contentStore'
import { followUpDepthSqlite, listFollowUpsSqlite } from './followUpOutbox'
import { sqliteOperations } from './operations'
import { CONTENT_STEP, tagRenamePlan } from '../workflow/tagRenamePlan'
import { DONE } from '../writePlan'
import { applyPlanSqlite } from './planApplier'
import { uniqueViolationFieldSqlite } from './uniqueViolation'
import { hitRateLimitSqlite } from './rateLimits'
import { writesOf, type SqliteWrites } from './writes'

/** The store's writes (start-up backfill, seed inserts, bulk loads) queue like every other writer of its file. */
function gatedStore(s: ContentStore, writes: SqliteWrites): ContentStore {
  return {
    ...s,
    prepare: () => writes.under(() => s.prepare()),
    insertContent: (rows) => writes.under(() => s.insertContent(rows)),
    bulkLoadContent: (batches, progress) => writes.under(() => s.bulkLoadContent(batches, progress)),
    insertTags: (rows) => writes.under(() => s.insertTags(rows)),
  }
}

/**
 * Every operation reads and writes the file of the Payload instance it is given, and writes under
 * that file's one write path (./writes: made with the instance's adapter, found from `payload.db`).
 */
export const sqliteEngine: EngineOps = {
  ...sqliteOperations,
  applyPlan: (payload, plan) => {
    const writes = writesOf(payload)
    return writes.under(() => applyPlanSqlite(writes.file, plan))
  },
  // One local transaction over every holder, all or nothing.
  renameTag: async (payload, tagId, input) => {
    const writes = writesOf(payload)
    const result = await writes.under(() => applyPlanSqlite(writes.file, tagRenamePlan(tagId, input)))
    if (result.outcome === DONE) return { outcome: 'renamed', contentCount: result.counts[CONTENT_STEP] ?? 0 }
    return { outcome: result.outcome === 'taken' ? 'taken' : 'not_found' }
  },
  // One per Payload instance (src/db/engine.ts keeps it), reading `payload`'s content generation.
  contentStore: (payload) => {
    const writes = writesOf(payload)
    return gatedStore(sqliteContentStore(writes.file, (view) => generation(payload, VIEW_DOMAIN[view]), () => rowFreshness(payload)), writes)
  },
  listFollowUps: async (payload, contentId) => listFollowUpsSqlite(writesOf(payload).file, contentId),
  followUpDepth: async (payload, now) => followUpDepthSqlite(writesOf(payload).file, now),
  // A counter: answered at its commit, its log synced behind it (./writes `counted`).
  hitRateLimit: (payload, key, points, durationSeconds) => {
    const writes = writesOf(payload)
    return writes.counted(() => hitRateLimitSqlite(writes.file, key, points, durationSeconds))
  },
  startChangeFeed: (payload, sink) => sqliteChangeFeed(writesOf(payload), sink),
  // Writers queue (busy_timeout, the write gate) instead of failing.
  isTransient: () => false,
  uniqueViolationField: uniqueViolationFieldSqlite,
  // The triggers moved the counters in the writing transaction; the gate's release reads them.
  noteDomainWrite: async () => undefined,
  // A writer holds the write lock before it reads: a reorder sees every committed sibling.
  noteSiblingWrite: async () => undefined,
}
