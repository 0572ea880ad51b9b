/**
 * The content collection's hooks: the URL key, the derived thumbnail URL, and the submit and
 * workflow rules for writes from the console's REST. The rules live in the services that the
 * API calls too (src/services/contentSubmission.ts, contentDuplicates.ts, contentThumbnail.ts).
 */
import type { CollectionBeforeChangeHook } from 'payload'

import { permissionsOf } from '../../access/userPermissions'
import { ApiError } from '../../src/platform/errors'
import { assertSlug } from '../../src/platform/slug'
import { urlKeyOf } from '../../src/platform/urlNormalize'
import { submissionsOpen } from '../../src/services/branding'
import { assertUrlFree } from '../../src/services/contentDuplicates'
import {
  assertReferencesExist,
  assertTagsExist,
  CONTENT_WORKFLOW_FIELDS,
  freeDerivedSlug,
  newSubmissionFields,
  refusedOnCreate,
  tagList,
} from '../../src/services/contentSubmission'
import { idOf, mediaUrl } from '../../src/services/contentThumbnail'
import { asConsoleError, changedWorkflowFields, isTrustedWrite, isVersionRestore, keepWorkflowFields, refusal } from '../../src/services/workflowGuard'

/**
 * Content's beforeChange hook for every write (services, console, fixtures): the key always
 * follows the URL and is never taken from the input. A changed URL is a new key with
 * ordinal 0; an unchanged one keeps the stored key and ordinal (legacy copies keep theirs).
 */
export const contentUrlKeyHook: CollectionBeforeChangeHook = ({ data, operation, originalDoc }) => {
  const original = (originalDoc ?? {}) as { url?: unknown; urlKey?: unknown; urlKeyOrdinal?: unknown }
  const url = typeof data.url === 'string' ? data.url : typeof original.url === 'string' ? original.url : null
  if (url === null) return data
  const key = urlKeyOf(url)
  if (operation === 'update' && original.urlKey === key) {
    return { ...data, urlKey: original.urlKey, urlKeyOrdinal: original.urlKeyOrdinal ?? 0 }
  }
  return { ...data, urlKey: key, urlKeyOrdinal: 0 }
}

/**
 * `thumbnailUrl` follows `thumbnail` (src/services/contentThumbnail.ts): derived on every write,
 * a different typed URL refused naming the field.
 */
export const deriveThumbnailUrl: CollectionBeforeChangeHook = async ({ data, originalDoc, req }) => {
  const original = (originalDoc ?? {}) as { thumbnail?: unknown; thumbnailUrl?: unknown }
  const thumbnail = 'thumbnail' in data ? idOf(data.thumbnail) : idOf(original.thumbnail)
  const derived = 'thumbnail' in data || !originalDoc ? await mediaUrl(req, thumbnail) : ((original.thumbnailUrl as string | null | undefined) ?? null)
  const sent = 'thumbnailUrl' in data ? (data.thumbnailUrl ?? null) : derived
  // A form sends the stored value back unchanged: only a new, different URL is someone typing one.
  if (sent !== derived && sent !== (original.thumbnailUrl ?? null)) {
    throw refusal('content', [
      { path: 'thumbnailUrl', message: 'thumbnailUrl follows the thumbnail: choose an uploaded media item as the thumbnail instead.' },
    ])
  }
  return { ...data, thumbnailUrl: derived }
}

/**
 * Content's beforeChange hook for writes from outside the services (the console's REST):
 * create follows the submit rules; update may not move a workflow field; tags and
 * references must exist either way.
 */
export const consoleContentRules: CollectionBeforeChangeHook = async ({ data: incoming, operation, originalDoc, req, context }) => {
  if (isTrustedWrite(req, context)) return incoming
  const data = operation === 'update' && isVersionRestore(context) ? keepWorkflowFields(CONTENT_WORKFLOW_FIELDS, incoming, (originalDoc ?? {}) as Record<string, unknown>) : incoming
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
