/**
 * The submit rules, in one place for both doors: POST /api/v1/content/submit
 * (contentWrites.submitContent) and the console's POST /api/content (the content collection's
 * beforeChange hook, collections/hooks/content.ts). A new item is pending, not approved, active, submitted by the caller; its tags
 * and taxonomy references exist; its slug is derived from the title and unique unless one
 * is given. The console may edit an item's text and references, never its workflow fields.
 */
import type { Payload, PayloadRequest } from 'payload'

import { ApiError, type FieldProblem, validationFailed } from '../platform/errors'
import { assertSlug, chooseSlug, derivedSlugs } from '../platform/slug'
import { getTaxonomy } from './catalog'
import { isSlugHeld } from './slugClaims'
import { changedWorkflowFields, comparableDate, comparableValue, type WorkflowField } from './workflowGuard'

const MODERATION = 'Approve / Reject (POST /api/v1/content/<slug>/approve|reject)'

/** The content fields only the moderation and delete services move. */
export const CONTENT_WORKFLOW_FIELDS: readonly WorkflowField[] = [
  { name: 'status', use: MODERATION },
  { name: 'approvedAt', use: MODERATION, comparable: comparableDate },
  { name: 'rejectionReason', use: MODERATION },
  { name: 'isActive', use: 'Delete (permission content.delete; DELETE /api/v1/content/<slug>)', comparable: (v) => v !== false },
  { name: 'submittedBy', use: 'submission (it is always the submitting user)' },
]

/** The workflow fields of every new submission. */
export function newSubmissionFields(submitterId: string) {
  return { status: 'pending' as const, approvedAt: null, rejectionReason: null, isActive: true, submittedBy: submitterId }
}

/** Unique tag slugs, and a problem (`tagSlugs.<i>`, constraint `exists`) for every unknown one. */
export async function checkTagSlugs(
  payload: Payload,
  tagSlugs: readonly string[],
  req?: PayloadRequest,
): Promise<{ tagSlugs: string[]; problems: FieldProblem[] }> {
  const unique = [...new Set(tagSlugs)]
  const problems: FieldProblem[] = []
  if (unique.length === 0) return { tagSlugs: unique, problems }
  const found = await payload.find({
    collection: 'tags',
    where: { slug: { in: unique } },
    limit: unique.length,
    depth: 0,
    overrideAccess: true,
    req,
  })
  const known = new Set(found.docs.map((t) => t.slug))
  unique.forEach((slug, i) => {
    if (!known.has(slug)) problems.push({ field: `tagSlugs.${i}`, constraint: 'exists', value: slug })
  })
  return { tagSlugs: unique, problems }
}

/** Unique tag slugs, every one an existing tag; unknown ones are 400 validation.failed. */
export async function assertTagsExist(payload: Payload, tagSlugs: readonly string[], req?: PayloadRequest): Promise<string[]> {
  const checked = await checkTagSlugs(payload, tagSlugs, req)
  if (checked.problems.length > 0) throw validationFailed(checked.problems)
  return checked.tagSlugs
}

/** The content default: candidates from the title (src/platform/slug.ts), `item` when it has no letters or digits. */
export const derivedContentSlugs = (title: string): Generator<string> => derivedSlugs(title, 'item')

/** The first derived slug no item, tag or surface holds (a concurrent taker still meets the claims' unique index). */
export function freeDerivedSlug(payload: Payload, title: string): Promise<string> {
  return chooseSlug({ explicit: undefined, value: title, from: 'title', fallback: 'item', entity: 'content', isTaken: (slug) => isSlugHeld(payload, slug) })
}

const refId = (v: unknown): string | null => comparableValue(v) as string | null

/** Group, channel and platform ids (as the console sends them) must exist. */
export async function assertReferencesExist(payload: Payload, data: Record<string, unknown>): Promise<void> {
  const taxonomy = await getTaxonomy(payload)
  const problems: FieldProblem[] = []
  const known: [string, Map<string, string>][] = [
    ['group', taxonomy.groupSlugById],
    ['channel', taxonomy.channelSlugById],
    ['platform', taxonomy.platformSlugById],
  ]
  for (const [field, byId] of known) {
    const id = field in data ? refId(data[field]) : null
    if (id !== null && !byId.has(id)) problems.push({ field, constraint: 'exists', value: id })
  }
  if (problems.length > 0) throw validationFailed(problems)
}

/** A list of strings, or null (left to the field's own validation). */
export const tagList = (value: unknown): string[] | null =>
  Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : null

/** What a new item may say about its workflow: only what a submission sets anyway. */
export function refusedOnCreate(data: Record<string, unknown>, submitterId: string) {
  const wanted = newSubmissionFields(submitterId)
  // An empty create form sends the field defaults; a missing submitter means "me".
  const asSent = { ...data, submittedBy: data.submittedBy ?? submitterId }
  return changedWorkflowFields(CONTENT_WORKFLOW_FIELDS, asSent, wanted)
}
