/** The embedded SQLite engine: each port of src/db/ports/index.ts from its own file, every write under this process's write gate. */
import type { ContentStore } from '../contentTypes'
import { VIEW_DOMAIN } from '../freshness'
import type { EngineOps } from '../ports'
import { generation, rowFreshness } from '../freshness'
import { sqliteChangeFeed } from './changeFeed'
import { sqliteContentStore } from './contentStore'
import { followUpDepthSqlite, listFollowUpsSqlite } from './followUpOutbox'
import { configuredFile, sqliteOperations } from './operations'
import { CONTENT_STEP, tagRenamePlan } from '../workflow/tagRenamePlan'
import { DONE } from '../writePlan'
import { applyPlanSqlite } from './planApplier'
import { uniqueViolationFieldSqlite } from './uniqueViolation'
import { hitRateLimitSqlite } from './rateLimits'
import { writesTo } from './writes'

/** Every write of this process to the configured file passes its one write path (./writes). */
const underWriteGate = <T>(write: () => T | Promise<T>): Promise<T> => writesTo(configuredFile()).under(write)

/** The store's writes (start-up backfill, seed inserts, bulk loads) queue like every other writer. */
function gatedStore(s: ContentStore): ContentStore {
  return {
    ...s,
    prepare: () => underWriteGate(() => s.prepare()),
    insertContent: (rows) => underWriteGate(() => s.insertContent(rows)),
    bulkLoadContent: (batches, progress) => underWriteGate(() => s.bulkLoadContent(batches, progress)),
    insertTags: (rows) => underWriteGate(() => s.insertTags(rows)),
  }
}

export const sqliteEngine: EngineOps = {
  ...sqliteOperations,
  applyPlan: (_payload, plan) => underWriteGate(() => applyPlanSqlite(configuredFile(), plan)),
  // One local transaction over every holder, all or nothing.
  renameTag: async (_payload, tagId, input) => {
    const result = await underWriteGate(() => applyPlanSqlite(configuredFile(), tagRenamePlan(tagId, input)))
    if (result.outcome === DONE) return { outcome: 'renamed', contentCount: result.counts[CONTENT_STEP] ?? 0 }
    return { outcome: result.outcome === 'taken' ? 'taken' : 'not_found' }
  },
  // One per Payload instance (src/db/engine.ts keeps it), reading `payload`'s content generation.
  contentStore: (payload) => gatedStore(sqliteContentStore(configuredFile(), (view) => generation(payload, VIEW_DOMAIN[view]), () => rowFreshness(payload))),
  listFollowUps: async (_payload, contentId) => listFollowUpsSqlite(configuredFile(), contentId),
  followUpDepth: async (_payload, now) => followUpDepthSqlite(configuredFile(), now),
  // A counter: answered at its commit, its log synced behind it (./writes `counted`).
  hitRateLimit: (_payload, key, points, durationSeconds) => writesTo(configuredFile()).counted(() => hitRateLimitSqlite(configuredFile(), key, points, durationSeconds)),
  startChangeFeed: sqliteChangeFeed(configuredFile),
  // Writers queue (busy_timeout, the write gate) instead of failing.
  isTransient: () => false,
  uniqueViolationField: uniqueViolationFieldSqlite,
  // The triggers moved the counters in the writing transaction; the gate's release reads them.
  noteDomainWrite: async () => undefined,
  // A writer holds the write lock before it reads: a reorder sees every committed sibling.
  noteSiblingWrite: async () => undefined,
}
