/**
 * Content writes: submission, the moderation moves of the spec's state table, and soft
 * delete. The API and the admin console both call these, so they cannot disagree.
 */
import type { Payload } from 'payload'

import type { AuthUser } from '../../access/guards'
import { getConfig } from '../platform/config'
import { engine, type ContentRecord } from '../db/engine'
import { ApiError, type FieldProblem, validationFailed } from '../platform/errors'
import { emit } from '../platform/events/bus'
import { assertSlug, DERIVED_SLUG_ATTEMPTS, suggestSlug } from '../platform/slug'
import { submissionsOpen } from './branding'
import { getTaxonomy } from './catalog'
import { type ContentDto, toContentDto } from './content'
import { assertUrlFree, duplicateAfterRace } from './contentDuplicates'
import { asSlugConflict, assertSlugFree, isSlugHeld, slugConflict } from './slugClaims'
import { checkTagSlugs, derivedContentSlugs, newSubmissionFields } from './contentSubmission'
import type { SubmitInput } from './requestBodies'
import { WORKFLOW_CONTEXT } from './workflowGuard'
import { payloadWrite } from '../db/payloadWrite'
import { recordedUpdate, transitionStatus } from '../db/workflow'
import { contentDomainOf } from '../db/freshness'

export type { SubmitInput }

const notFound = () => new ApiError(404, 'content.not_found', 'No visible content has this slug.')

/** Which item a moderation call means: the API addresses it by slug, the console by id. */
export type ContentRef = { slug: string } | { id: string }

const recordOf = (payload: Payload, ref: ContentRef): Promise<ContentRecord | null> => {
  const store = engine().contentStore(payload)
  return 'slug' in ref ? store.contentBySlug(ref.slug) : store.contentById(ref.id)
}

/** Group, channel, platform and tags resolved to ids; unknown ones are 400 validation.failed. */
async function resolveReferences(payload: Payload, input: SubmitInput) {
  const taxonomy = await getTaxonomy(payload)
  const problems: FieldProblem[] = []
  const groupSlug = input.group ?? getConfig().contentDefaultGroupSlug
  let group: string | null = null
  if (groupSlug) {
    const ids = taxonomy.groupIdsBySlug.get(groupSlug) ?? []
    if (ids.length === 1) group = ids[0]!
    else problems.push({ field: 'group', constraint: ids.length === 0 ? 'exists' : 'ambiguous', value: groupSlug })
  }
  let channel: string | null = null
  if (input.channel) {
    if (!groupSlug) problems.push({ field: 'channel', constraint: 'requires_group', value: input.channel })
    else if (group) {
      channel = taxonomy.channelIdByGroupAndSlug.get(`${group}/${input.channel}`) ?? null
      if (!channel) problems.push({ field: 'channel', constraint: 'exists', value: input.channel })
    }
  }
  let platform: string | null = null
  if (input.platform) {
    platform = taxonomy.platformIdBySlug.get(input.platform) ?? null
    if (!platform) problems.push({ field: 'platform', constraint: 'exists', value: input.platform })
  }
  const { tagSlugs, problems: tagProblems } = await checkTagSlugs(payload, input.tagSlugs ?? [])
  problems.push(...tagProblems)
  if (problems.length > 0) throw validationFailed(problems)
  return { group, channel, platform, tagSlugs, taxonomy }
}

export async function submitContent(payload: Payload, input: SubmitInput, user: AuthUser): Promise<ContentDto> {
  if (!(await submissionsOpen(payload))) {
    throw new ApiError(403, 'content.submissions_closed', 'Submissions are closed.')
  }
  const explicit = input.slug !== undefined ? assertSlug(input.slug) : undefined
  const { group, channel, platform, tagSlugs, taxonomy } = await resolveReferences(payload, input)
  // 409 content.duplicate when the URL's key is stored; a concurrent twin meets the unique index.
  const urlKey = await assertUrlFree(payload, input.url, user)
  const store = engine().contentStore(payload)
  const candidates = explicit ? [explicit][Symbol.iterator]() : derivedContentSlugs(input.title)
  for (let attempt = 0; attempt < DERIVED_SLUG_ATTEMPTS; attempt++) {
    const slug = candidates.next().value as string | undefined
    if (!slug) break
    // Held by an item, a tag or a surface: slugs are global (./slugClaims).
    if (explicit) await assertSlugFree(payload, slug)
    else if (await isSlugHeld(payload, slug)) continue
    try {
      await payloadWrite(() => payload.create({
        collection: 'content',
        data: {
          slug,
          title: input.title,
          url: input.url,
          description: input.description ?? null,
          tagSlugs,
          group,
          channel,
          platform,
          ...newSubmissionFields(user.id),
        },
        overrideAccess: true,
        context: WORKFLOW_CONTEXT,
        // The answer is read from the store below: nothing of Payload's populated return is used.
        depth: 0,
      }))
    } catch (err) {
      // A concurrent submission of the same URL won the unique (urlKey, urlKeyOrdinal) index.
      const duplicate = await duplicateAfterRace(payload, urlKey, user)
      if (duplicate) throw duplicate
      // A concurrent writer (an item, a tag, a surface) took the slug between the check and the insert.
      const conflict = await asSlugConflict(payload, err, slug, 'content')
      if (!conflict) throw err
      if (explicit) throw conflict
      continue
    }
    return toContentDto((await store.contentBySlug(slug))!, taxonomy)
  }
  throw slugConflict(explicit ?? suggestSlug(input.title), 'content')
}

async function moderatable(payload: Payload, ref: ContentRef): Promise<ContentRecord> {
  const record = await recordOf(payload, ref)
  if (!record || !record.isActive) throw notFound()
  return record
}

/** Test seam: runs inside the move's transaction after the move and its audit event; a throw rolls both back. */
export type MoveOptions = { afterMove?: () => void }

async function move(
  payload: Payload,
  ref: ContentRef,
  to: 'approved' | 'rejected',
  reason: string | null,
  actor: AuthUser | null,
  options: MoveOptions = {},
): Promise<ContentRecord> {
  const record = await moderatable(payload, ref)
  const now = new Date()
  const moved =
    record.status === 'pending' &&
    (await transitionStatus(payload, {
      id: record.id,
      from: 'pending',
      to,
      at: now,
      approvedAt: to === 'approved' ? now : null,
      rejectionReason: to === 'rejected' ? reason : null,
      // Queued in the move's own transaction: a crash after the commit cannot lose them.
      followUps: to === 'approved' ? ['thumbnail', 'notify.approved'] : ['notify.rejected'],
      // The audit trail: written in the same transaction as the move.
      event: {
        actorId: actor?.id ?? null,
        action: to === 'approved' ? 'approve' : 'reject',
        targetSlug: record.slug,
        stateBefore: 'pending',
        stateAfter: to,
        reason: to === 'rejected' ? reason : null,
        at: now,
      },
      afterMove: options.afterMove,
    }))
  if (!moved) {
    // Read non-pending: the spec's 422. Read pending and active, yet the guarded move found it
    // otherwise: another request moved or deleted it meanwhile, and won.
    if (record.status !== 'pending') {
      throw new ApiError(422, 'content.state_invalid', `Only pending content can be ${to}; this item is ${record.status}.`, {
        status: record.status,
      })
    }
    throw await conflict(payload, record.id)
  }
  return (await engine().contentStore(payload).contentById(record.id))!
}

/**
 * pending → approved. The follow-ups (thumbnail, notification) are queued with the move and
 * run later by a runner (src/jobs); the event only wakes this process's runner.
 */
export async function approveContent(
  payload: Payload,
  ref: ContentRef,
  actor: AuthUser | null,
  options: MoveOptions = {},
): Promise<ContentDto> {
  const record = await move(payload, ref, 'approved', null, actor, options)
  emit('content.approved', { contentId: record.id, slug: record.slug, submittedBy: record.submittedBy, actorId: actor?.id ?? null })
  return toContentDto(record, await getTaxonomy(payload))
}

/** pending → rejected, with an optional reason; the record is kept and hidden. */
export async function rejectContent(
  payload: Payload,
  ref: ContentRef,
  reason: string | null,
  actor: AuthUser | null,
  options: MoveOptions = {},
): Promise<ContentDto> {
  const record = await move(payload, ref, 'rejected', reason, actor, options)
  emit('content.rejected', { contentId: record.id, slug: record.slug, submittedBy: record.submittedBy, actorId: actor?.id ?? null, reason })
  return toContentDto(record, await getTaxonomy(payload))
}

/** 409 `content.conflict`: the item is no longer as this request read it. */
async function conflict(payload: Payload, id: string): Promise<ApiError> {
  const now = await engine().contentStore(payload).contentById(id)
  return new ApiError(409, 'content.conflict', 'The item changed while your request was in flight; read it again.', {
    status: now?.status ?? null,
    isActive: now?.isActive ?? null,
  })
}

/**
 * isActive from `!to` to `to`, with its audit event, in one transaction, guarded by the status
 * the request read too (a delete racing an approval: one of them wins); a delete cancels the
 * item's queued follow-ups in the same transaction. False when the guard no longer held.
 */
async function setActive(payload: Payload, record: ContentRecord, to: boolean, actor: AuthUser | null): Promise<boolean> {
  const result = await recordedUpdate(payload, {
    collection: 'content',
    id: record.id,
    expect: { isActive: !to, status: record.status },
    set: { isActive: to },
    cancelFollowUps: !to,
    domain: contentDomainOf(record),
    event: {
      actorId: actor?.id ?? null,
      action: to ? 'restore' : 'delete',
      targetSlug: record.slug,
      stateBefore: to ? 'deleted' : 'active',
      stateAfter: to ? 'active' : 'deleted',
      reason: null,
      at: new Date(),
    },
  })
  return result === 'updated'
}

/** Soft delete: isActive=false, recorded in the audit trail. Idempotent. Content is never removed. */
export async function softDeleteContent(payload: Payload, ref: ContentRef, actor: AuthUser | null): Promise<{ deleted: true; id: string }> {
  const record = await recordOf(payload, ref)
  if (!record) throw notFound()
  if (record.isActive && !(await setActive(payload, record, false, actor))) {
    // Deleted meanwhile by another request: the same outcome (idempotent). Moved meanwhile: it lost.
    const now = await engine().contentStore(payload).contentById(record.id)
    if (now?.isActive) throw await conflict(payload, record.id)
  }
  return { deleted: true, id: record.id }
}

/** Undoes a soft delete: isActive=true, recorded in the audit trail. Idempotent. */
export async function restoreContent(payload: Payload, ref: ContentRef, actor: AuthUser | null): Promise<ContentDto> {
  const record = await recordOf(payload, ref)
  if (!record) throw notFound()
  if (!record.isActive && !(await setActive(payload, record, true, actor))) {
    const now = await engine().contentStore(payload).contentById(record.id)
    if (!now?.isActive) throw await conflict(payload, record.id)
  }
  return toContentDto((await engine().contentStore(payload).contentById(record.id))!, await getTaxonomy(payload))
}
