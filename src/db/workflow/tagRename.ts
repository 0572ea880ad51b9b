/**
 * A tag rename: the tag's slug (guarded by the slug the request read) and its claim among the
 * global slugs, every content item's tagSlugs in place, the rename record and the audit event,
 * all or nothing. A slug already taken (by a tag, an item or a surface) meets a unique index: `taken`.
 */
import type { Payload } from 'payload'

import { engine } from '../engine'
import { newHexId } from '../ids'
import type { TagRenameInput, TagRenameResult } from '../renameTypes'
import { DONE, ref, type WritePlan } from '../writePlan'
import { auditEventStep } from './auditEvent'
import { moveSlugClaimSteps } from './slugClaim'

const CONTENT_STEP = 3

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
    ],
    afterStep: input.afterContentUpdate && ((i) => i === CONTENT_STEP && input.afterContentUpdate!()),
  }
}

export async function renameTag(payload: Payload, input: TagRenameInput): Promise<TagRenameResult> {
  const tag = await engine().contentStore(payload).tagBySlug(input.oldSlug)
  if (!tag) return { outcome: 'not_found' }
  const result = await engine().applyPlan(payload, tagRenamePlan(tag.id, input))
  if (result.outcome === DONE) return { outcome: 'renamed', contentCount: result.counts[CONTENT_STEP] ?? 0 }
  return { outcome: result.outcome === 'taken' ? 'taken' : 'not_found' }
}
