/**
 * Tag rename on SQLite: one synchronous transaction on the service's connection, so the tag,
 * every content item's tag_slugs, the rename audit row and the moderation event change together or not at all.
 */
import { newHexId } from '../ids'
import type { TagRenameInput, TagRenameResult } from '../renameTypes'
import { connection } from './connection'
import { TABLES } from './tables'

const { tags, content, tagRenames } = TABLES
import { insertModerationEventSqlite } from './moderationEvents'

export function renameTagSqlite(file: string, input: TagRenameInput): TagRenameResult {
  const db = connection(file)
  const now = input.at.toISOString()
  const run = db.transaction((): TagRenameResult => {
    const tag = db.prepare(`SELECT id FROM "${tags}" WHERE slug = ?`).get(input.oldSlug) as { id: string } | undefined
    if (!tag) return { outcome: 'not_found' }
    if (db.prepare(`SELECT 1 FROM "${tags}" WHERE slug = ?`).get(input.newSlug)) return { outcome: 'taken' }
    db.prepare(`UPDATE "${tags}" SET slug = ?, updated_at = ? WHERE id = ?`).run(input.newSlug, now, tag.id)
    // Replace the slug inside each JSON array, keeping its position and the array's order.
    const updated = db
      .prepare(
        `UPDATE "${content}" AS c SET
           tag_slugs = (SELECT json_group_array(CASE WHEN j.value = ?1 THEN ?2 ELSE j.value END)
                        FROM json_each(c.tag_slugs) AS j),
           updated_at = ?3
         WHERE EXISTS (SELECT 1 FROM json_each(c.tag_slugs) AS j WHERE j.value = ?1)`,
      )
      .run(input.oldSlug, input.newSlug, now)
    const contentCount = Number(updated.changes)
    input.afterContentUpdate?.()
    db.prepare(
      `INSERT INTO "${tagRenames}" (id, actor_id, old_slug, new_slug, content_count, at, updated_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(newHexId(), input.actorId, input.oldSlug, input.newSlug, contentCount, now, now, now)
    insertModerationEventSqlite(db, {
      actorId: input.actorId,
      action: 'tag.rename',
      targetCollection: 'tags',
      targetId: tag.id,
      targetSlug: input.newSlug,
      stateBefore: input.oldSlug,
      stateAfter: input.newSlug,
      reason: `${contentCount} content item${contentCount === 1 ? '' : 's'} followed`,
      at: input.at,
    })
    return { outcome: 'renamed', contentCount }
  })
  return run.immediate()
}
