/** Conditional status moves on SQLite: one UPDATE guarded by the current status. */
import type { StatusTransition } from '../moderationTypes'
import { connection } from './connection'

export function transitionStatusSqlite(file: string, t: StatusTransition): boolean {
  const result = connection(file)
    .prepare(
      `UPDATE content SET status = ?, approved_at = ?, rejection_reason = ?, updated_at = ?
       WHERE id = ? AND status = ?`,
    )
    .run(t.to, t.approvedAt?.toISOString() ?? null, t.rejectionReason, t.at.toISOString(), t.id, t.from)
  return Number(result.changes) === 1
}
