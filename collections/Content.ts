import type { CollectionConfig, Validate } from 'payload'

import { allowIf } from '../access/collectionAccess'
import type { Content as ContentDoc } from '../payload-types'
import { contentWriteHooks } from './hooks/domainWrites'
import { claimSlug } from './hooks/slugClaims'
import { consoleContentRules, contentUrlKeyHook, deriveThumbnailUrl } from './hooks/content'
import { slugProblem } from '../src/platform/slug'
import { TEXT_LIMITS, textValidator } from '../src/platform/text'
import { contentUrlValidator } from '../src/platform/urlPolicy'
import { slugField } from './taxonomyFields'

import { CONTENT_STATUSES } from '../src/db/contentTypes'

export { CONTENT_STATUSES }

const validateTagSlugs: Validate = (value: unknown) => {
  if (value == null) return true
  if (!Array.isArray(value)) return 'tagSlugs must be an array of tag slugs.'
  if (value.some((v) => slugProblem(v) === 'pattern')) return 'Every tag slug must match the slug pattern.'
  if (new Set(value).size !== value.length) return 'Tag slugs must not repeat.'
  return true
}

const refId = (v: unknown): string | null =>
  v == null ? null : typeof v === 'object' ? String((v as { id: unknown }).id) : String(v)

/** The channel, when set, must belong to the content's group. */
const validateChannel: Validate<unknown, ContentDoc> = async (value, { data, req }) => {
  const channelId = refId(value)
  if (!channelId) return true
  const groupId = refId(data?.group)
  if (!groupId) return 'A channel needs a group.'
  const channel = await req.payload.findByID({ collection: 'channels', id: channelId, depth: 0, overrideAccess: true, req })
  return refId(channel?.group) === groupId ? true : 'The channel does not belong to the group.'
}

/**
 * Curated content. Never hard-deleted (isActive=false is the soft delete). Reads through
 * Payload's REST are for moderators; the public list is GET /api/v1/content (src/db fast path).
 * tagSlugs is a JSON array column: the DTO reads it as is, and src/db keeps an indexed
 * side table in sync with triggers for filtering.
 */
const contentWrites = contentWriteHooks()

export const Content: CollectionConfig = {
  slug: 'content',
  labels: { singular: 'Content item', plural: 'Content' },
  admin: {
    useAsTitle: 'title',
    defaultColumns: ['title', 'slug', 'status', 'group', 'platform', 'approvedAt', 'isActive'],
    listSearchableFields: ['title', 'slug'],
    group: 'Content',
    // What the list shows when it is filtered by status (its default: pending, oldest first).
    components: { beforeListTable: ['/app/(payload)/admin/_components/ContentListNote#ContentListNote'] },
  },
  access: {
    read: allowIf('content.moderate'),
    create: allowIf('content.moderate'),
    update: allowIf('content.moderate'),
    delete: () => false,
  },
  defaultSort: '-approvedAt',
  hooks: {
    // The console's REST: submit rules on create, no workflow move on update (services only).
    // Then, for every write, the URL key follows the URL (duplicate URLs, ./hooks/content).
    // thumbnailUrl always follows the thumbnail's media record (./hooks/content).
    beforeChange: [consoleContentRules, contentUrlKeyHook, deriveThumbnailUrl],
    // The slug is claimed among tags, content and surfaces in the write's transaction (global
    // uniqueness); cached lists and totals follow the content generation, moved once the write commits.
    afterChange: [claimSlug('content'), ...contentWrites.afterChange],
    afterDelete: contentWrites.afterDelete,
  },
  fields: [
    slugField({ unique: true }),
    { name: 'title', type: 'text', required: true, validate: textValidator(TEXT_LIMITS.title) },
    { name: 'description', type: 'textarea', validate: textValidator(TEXT_LIMITS.description) },
    { name: 'url', type: 'text', required: true, validate: contentUrlValidator },
    // The normalised URL (src/platform/urlNormalize.ts), set by the hook from `url`, never by a form.
    // Unique with urlKeyOrdinal (0 for every new item; 1, 2, ... for copies from before the
    // rule) through the raw_content_url_key index (src/db).
    { name: 'urlKey', type: 'text', admin: { hidden: true, readOnly: true } },
    { name: 'urlKeyOrdinal', type: 'number', defaultValue: 0, admin: { hidden: true, readOnly: true } },
    {
      name: 'tagSlugs',
      type: 'json',
      label: 'Tags',
      defaultValue: [],
      validate: validateTagSlugs,
      // Chosen from the existing tags (search as you type), not typed as JSON.
      admin: { components: { Field: '/app/(payload)/admin/_components/TagSlugsField#TagSlugsField' } },
    },
    { name: 'group', type: 'relationship', relationTo: 'groups' },
    {
      name: 'channel',
      type: 'relationship',
      relationTo: 'channels',
      validate: validateChannel,
      // The choices offered are the choices allowed (issue 53.8): the chosen group's channels. With
      // no group every channel: the content list's filter asks with no item at all. In the form,
      // ChannelField waits for a group and empties the channel when the group changes.
      filterOptions: ({ siblingData }) => {
        const group = refId((siblingData as { group?: unknown } | undefined)?.group)
        return group ? { group: { equals: group } } : true
      },
      admin: {
        description: "One of the group's channels: choose the group first.",
        components: { Field: '/app/(payload)/admin/_components/ChannelField#ChannelField' },
      },
    },
    { name: 'platform', type: 'relationship', relationTo: 'platforms' },
    {
      name: 'moderationActions',
      type: 'ui',
      admin: { position: 'sidebar', components: { Field: '/app/(payload)/admin/_components/ContentModerationActions#ContentModerationActions' } },
    },
    {
      // The item's audit trail (read-only), from the moderation-events collection.
      name: 'moderationHistory',
      type: 'ui',
      admin: { position: 'sidebar', components: { Field: '/app/(payload)/admin/_components/ContentModerationHistory#ContentModerationHistory' } },
    },
    {
      name: 'status',
      type: 'select',
      required: true,
      defaultValue: 'pending',
      options: [...CONTENT_STATUSES],
      // Workflow fields: only the services move them (the hook refuses changes from the console).
      admin: { readOnly: true, position: 'sidebar' },
    },
    { name: 'isActive', type: 'checkbox', defaultValue: true, admin: { readOnly: true, position: 'sidebar' } },
    { name: 'submittedBy', type: 'relationship', relationTo: 'users', admin: { readOnly: true, position: 'sidebar' } },
    { name: 'approvedAt', type: 'date', admin: { readOnly: true, position: 'sidebar', date: { overrides: { title: 'Approved at' } } } },
    { name: 'rejectionReason', type: 'textarea', validate: textValidator(TEXT_LIMITS.reason), admin: { readOnly: true } },
    { name: 'thumbnail', type: 'upload', relationTo: 'media' },
    // Denormalized from the upload so list reads need no join: derived from `thumbnail` on every write, never typed.
    { name: 'thumbnailUrl', type: 'text', admin: { readOnly: true, position: 'sidebar' } },
  ],
  timestamps: true,
}
