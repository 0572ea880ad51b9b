/**
 * The audit trail on SQLite: inserted on the service's connection inside the caller's
 * transaction (status move, tag rename, recorded update), so the event commits with the change.
 */
import { newHexId } from '../ids'
import type { ModerationEventInput, RecordedUpdate, RecordedUpdateResult } from '../moderationEventTypes'
import { connection } from './connection'
import { cancelFollowUpsSqlite } from './followUpOutbox'
import { TABLES } from './tables'
import { uniqueViolationField } from '../uniqueViolation'

type Db = ReturnType<typeof connection>

/** Inside a transaction on `db`. */
export function insertModerationEventSqlite(db: Db, e: ModerationEventInput): void {
  const at = e.at.toISOString()
  db.prepare(
    `INSERT INTO "${TABLES.moderationEvents}"
       (id, actor_id, action, target_collection, target_id, target_slug, state_before, state_after, reason, at, updated_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(newHexId(), e.actorId, e.action, e.targetCollection, e.targetId, e.targetSlug, e.stateBefore, e.stateAfter, e.reason, at, at, at)
}

const column = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
const stored = (v: string | boolean) => (typeof v === 'boolean' ? (v ? 1 : 0) : v)
const FIELD = /^[a-zA-Z]+$/

/** One guarded UPDATE and its event in one BEGIN IMMEDIATE transaction (triggers move the counters). */
export function recordedUpdateSqlite(file: string, u: RecordedUpdate): RecordedUpdateResult {
  const fields = [...Object.keys(u.set), ...Object.keys(u.expect)]
  if (!fields.every((f) => FIELD.test(f))) throw new Error('recordedUpdate: field names are identifiers')
  const db = connection(file)
  const at = u.event.at.toISOString()
  const run = db.transaction((): RecordedUpdateResult => {
    const sets = Object.keys(u.set).map((f) => `${column(f)} = ?`)
    const guards = Object.keys(u.expect).map((f) => `${column(f)} = ?`)
    const result = db
      .prepare(`UPDATE "${TABLES[u.collection]}" SET ${[...sets, 'updated_at = ?'].join(', ')} WHERE ${['id = ?', ...guards].join(' AND ')}`)
      .run(...Object.values(u.set).map(stored), at, u.id, ...Object.values(u.expect).map(stored))
    if (Number(result.changes) !== 1) return 'unchanged'
    if (u.cancelFollowUps) cancelFollowUpsSqlite(file, u.id)
    insertModerationEventSqlite(db, { ...u.event, targetCollection: u.collection, targetId: u.id })
    u.afterWrite?.()
    return 'updated'
  })
  try {
    return run.immediate()
  } catch (err) {
    if (uniqueViolationField(err) !== undefined) return 'taken'
    throw err
  }
}
