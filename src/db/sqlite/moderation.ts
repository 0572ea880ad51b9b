/**
 * Conditional status moves on SQLite: one UPDATE guarded by the current status (of an active
 * item: a deleted one never moves), and the
 * move's follow-up jobs and its audit event, in one BEGIN IMMEDIATE transaction on the service's connection.
 */
import type { StatusTransition } from '../moderationTypes'
import { enqueueFollowUpsSqlite, outboxDb } from './followUpOutbox'
import { TABLES } from './tables'
import { insertModerationEventSqlite } from './moderationEvents'

export function transitionStatusSqlite(file: string, t: StatusTransition): boolean {
  const db = outboxDb(file)
  const move = db.transaction((): boolean => {
    const result = db
      .prepare(
        `UPDATE "${TABLES.content}" SET status = ?, approved_at = ?, rejection_reason = ?, updated_at = ?
         WHERE id = ? AND status = ? AND is_active = 1`,
      )
      .run(t.to, t.approvedAt?.toISOString() ?? null, t.rejectionReason, t.at.toISOString(), t.id, t.from)
    if (Number(result.changes) !== 1) return false
    enqueueFollowUpsSqlite(db, t.id, t.followUps, t.at)
    insertModerationEventSqlite(db, { ...t.event, targetCollection: 'content', targetId: t.id })
    t.afterMove?.()
    return true
  })
  return move.immediate()
}
