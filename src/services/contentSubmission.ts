/**
 * The submit rules, in one place for both doors: POST /api/v1/content/submit
 * (contentWrites.submitContent) and the console's POST /api/content (the beforeChange hook
 * below). A new item is pending, not approved, active, submitted by the caller; its tags
 * and taxonomy references exist; its slug is derived from the title and unique unless one
 * is given. The console may edit an item's text and references, never its workflow fields.
 */
import type { CollectionBeforeChangeHook, Payload, PayloadRequest } from 'payload'

import { permissionsOf } from '../../access/userPermissions'
import { engine } from '../db/engine'
import { ApiError, type FieldProblem, validationFailed } from '../errors'
import { assertSlug, chooseSlug, derivedSlugs } from '../slug'
import { submissionsOpen } from './branding'
import { getTaxonomy } from './catalog'
import { assertUrlFree } from './contentDuplicates'
import { urlKeyOf } from '../urlNormalize'
import {
  asConsoleError,
  changedWorkflowFields,
  comparableDate,
  comparableValue,
  isTrustedWrite,
  refusal,
  type WorkflowField,
} from './workflowGuard'

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
async function assertTagsExist(payload: Payload, tagSlugs: readonly string[], req?: PayloadRequest): Promise<string[]> {
  const checked = await checkTagSlugs(payload, tagSlugs, req)
  if (checked.problems.length > 0) throw validationFailed(checked.problems)
  return checked.tagSlugs
}

/** The content default: candidates from the title (src/slug.ts), `item` when it has no letters or digits. */
export const derivedContentSlugs = (title: string): Generator<string> => derivedSlugs(title, 'item')

/** The first derived slug no item holds (a concurrent taker still meets the unique index). */
function freeDerivedSlug(payload: Payload, title: string): Promise<string> {
  const store = engine().contentStore(payload)
  return chooseSlug({ explicit: undefined, value: title, from: 'title', fallback: 'item', entity: 'content', isTaken: async (slug) => !!(await store.contentBySlug(slug)) })
}

const refId = (v: unknown): string | null => comparableValue(v) as string | null

/** Group, channel and platform ids (as the console sends them) must exist. */
async function assertReferencesExist(payload: Payload, data: Record<string, unknown>): Promise<void> {
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
const tagList = (value: unknown): string[] | null =>
  Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : null

/** What a new item may say about its workflow: only what a submission sets anyway. */
function refusedOnCreate(data: Record<string, unknown>, submitterId: string) {
  const wanted = newSubmissionFields(submitterId)
  // An empty create form sends the field defaults; a missing submitter means "me".
  const asSent = { ...data, submittedBy: data.submittedBy ?? submitterId }
  return changedWorkflowFields(CONTENT_WORKFLOW_FIELDS, asSent, wanted)
}

/**
 * Content's beforeChange hook for writes from outside the services (the console's REST):
 * create follows the submit rules; update may not move a workflow field; tags and
 * references must exist either way.
 */
export const consoleContentRules: CollectionBeforeChangeHook = async ({ data, operation, originalDoc, req, context }) => {
  if (isTrustedWrite(req, context)) return data
  try {
    if (operation === 'create') {
      if (!req.user) throw new ApiError(401, 'auth.missing_token', 'Sign in first.')
      const submitter = String(req.user.id)
      const refused = refusedOnCreate(data, submitter)
      if (refused.length > 0) throw refusal('content', refused)
      if (!(await submissionsOpen(req.payload))) throw new ApiError(403, 'content.submissions_closed', 'Submissions are closed.')
      const slug = data.slug ? assertSlug(data.slug) : await freeDerivedSlug(req.payload, String(data.title ?? ''))
      const tagSlugs = await assertTagsExist(req.payload, tagList(data.tagSlugs) ?? [], req)
      await assertReferencesExist(req.payload, data)
      await assertUrlFree(req.payload, String(data.url ?? ''), { id: submitter, permissions: permissionsOf(req) })
      return { ...data, slug, tagSlugs, ...newSubmissionFields(submitter) }
    }
    const refused = changedWorkflowFields(CONTENT_WORKFLOW_FIELDS, data, (originalDoc ?? {}) as Record<string, unknown>)
    if (refused.length > 0) throw refusal('content', refused)
    const tags = tagList(data.tagSlugs)
    if (tags) data.tagSlugs = await assertTagsExist(req.payload, tags, req)
    await assertReferencesExist(req.payload, data)
    const original = (originalDoc ?? {}) as { id?: unknown; urlKey?: unknown }
    if (typeof data.url === 'string' && urlKeyOf(data.url) !== original.urlKey && req.user) {
      await assertUrlFree(req.payload, data.url, { id: String(req.user.id), permissions: permissionsOf(req) }, String(original.id))
    }
    return data
  } catch (err) {
    // The console shows field errors: a duplicate URL is one, on `url`, with its code.
    if (err instanceof ApiError && err.code === 'content.duplicate') {
      const seen = err.details as { slug?: string } | undefined
      throw refusal('content', [{ path: 'url', message: `content.duplicate: ${err.message}${seen?.slug ? ` (${seen.slug})` : ''}` }])
    }
    throw asConsoleError('content', err)
  }
}
