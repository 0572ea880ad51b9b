/**
 * A tag rename as write plans (engine-neutral, no engine imported): the whole rename in one plan
 * (what SQLite applies), and the record-and-audit steps MongoDB's recorded steps reuse
 * (src/db/mongo/tagRename.ts). A slug already taken (by a tag, an item or a surface) meets a
 * unique index: `taken`.
 */
import { newHexId } from '../ids'
import type { TagRenameInput } from '../renameTypes'
import { ref, type Step, type WritePlan } from '../writePlan'
import { auditEventStep } from './auditEvent'
import { moveSlugClaimSteps } from './slugClaim'

/** The plan's step that moves every holder (its count is how many items followed). */
export const CONTENT_STEP = 3

/** The rename record and its audit event, with how many items followed (`followed`, read from the plan's counts or given). */
export function tagRenameRecordSteps(tagId: string, input: Pick<TagRenameInput, 'oldSlug' | 'newSlug' | 'actorId' | 'at'>, followed: (counts: readonly number[]) => number): Step[] {
  const at = input.at
  return [
    {
      op: 'insert',
      target: 'tag-renames',
      values: {
        id: ref(newHexId()),
        actor: ref(input.actorId),
        oldSlug: input.oldSlug,
        newSlug: input.newSlug,
        contentCount: followed,
        at,
        createdAt: at,
        updatedAt: at,
      },
    },
    auditEventStep({
      actorId: input.actorId,
      action: 'tag.rename',
      targetCollection: 'tags',
      targetId: tagId,
      targetSlug: input.newSlug,
      stateBefore: input.oldSlug,
      stateAfter: input.newSlug,
      reason: (counts) => `${followed(counts)} content item${followed(counts) === 1 ? '' : 's'} followed`,
      at,
    }),
  ]
}

/** The whole rename as one plan, applied atomically (SQLite: one local transaction over every holder). */
export function tagRenamePlan(tagId: string, input: TagRenameInput): WritePlan {
  const at = input.at
  const followed = (counts: readonly number[]) => counts[CONTENT_STEP] ?? 0
  return {
    name: 'tag_rename',
    domains: ['taxonomy', 'content'],
    onUnique: 'taken',
    steps: [
      { op: 'update', target: 'tags', where: { id: ref(tagId), slug: input.oldSlug }, set: { slug: input.newSlug, updatedAt: at }, one: 'not_found' },
      // The new slug claimed among tags, content and surfaces: held by anyone, the plan ends `taken`.
      ...moveSlugClaimSteps('tag', tagId, input.newSlug),
      { op: 'replaceInArray', target: 'content', field: 'tagSlugs', from: input.oldSlug, to: input.newSlug, set: { updatedAt: at } },
      ...tagRenameRecordSteps(tagId, input, followed),
    ],
    afterStep: input.afterContentUpdate && ((i) => i === CONTENT_STEP && input.afterContentUpdate!()),
  }
}
