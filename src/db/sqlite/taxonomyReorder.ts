/**
 * Taxonomy reorder on SQLite: one immediate transaction on the service's connection reads the
 * parent's children, checks the list against them and writes every display_order; the
 * taxonomy change counter moves through the tables' triggers in the same transaction.
 */
import { type ReorderInput, type ReorderResult, sameMembers } from '../reorderTypes'
import { connection } from './connection'
import { TABLES } from './tables'

const PARENT_COLUMNS = { surface: 'surface_id', group: 'group_id' } as const

export function reorderTaxonomySqlite(file: string, input: ReorderInput): ReorderResult {
  const db = connection(file)
  const table = TABLES[input.collection]
  const now = input.at.toISOString()
  const run = db.transaction((): ReorderResult => {
    const rows = (
      input.parent
        ? db.prepare(`SELECT id FROM "${table}" WHERE ${PARENT_COLUMNS[input.parent.field]} = ?`).all(input.parent.id)
        : db.prepare(`SELECT id FROM "${table}"`).all()
    ) as { id: string }[]
    const actual = rows.map((r) => String(r.id))
    if (!sameMembers(actual, input.orderedIds)) return { outcome: 'mismatch', actual }
    const update = db.prepare(`UPDATE "${table}" SET display_order = ?, updated_at = ? WHERE id = ?`)
    input.orderedIds.forEach((id, index) => {
      update.run(index, now, id)
      if (index === 0) input.afterFirstWrite?.()
    })
    return { outcome: 'reordered' }
  })
  return run.immediate()
}
