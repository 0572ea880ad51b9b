import type { CollectionConfig } from 'payload'

import { allowIf, nobody } from '../access/collectionAccess'
import { MODERATION_ACTIONS } from '../src/db/moderationTypes'

/**
 * The moderation audit trail: every approve, reject, soft delete, restore and tag or taxonomy
 * rename, written by the database engine in the same transaction as the change
 * (src/db/*\/moderationEvents.ts). Readable by content.moderate holders; nobody creates,
 * edits or deletes an event through Payload (the engine writes below the access layer).
 */
export const ModerationEvents: CollectionConfig = {
  slug: 'moderation-events',
  labels: { singular: 'Moderation event', plural: 'Moderation events' },
  admin: {
    useAsTitle: 'action',
    defaultColumns: ['at', 'action', 'targetSlug', 'targetCollection', 'stateBefore', 'stateAfter', 'actor', 'reason'],
    group: 'Content',
    description: 'The audit trail: written with each change, never edited. The filterable log is at /admin/audit.',
  },
  access: {
    read: allowIf('content.moderate'),
    create: nobody,
    update: nobody,
    delete: nobody,
  },
  defaultSort: '-at',
  fields: [
    { name: 'actor', type: 'relationship', relationTo: 'users', index: true },
    { name: 'action', type: 'select', required: true, options: [...MODERATION_ACTIONS], index: true },
    { name: 'targetCollection', type: 'text', required: true },
    { name: 'targetId', type: 'text', required: true, index: true },
    { name: 'targetSlug', type: 'text', required: true, index: true },
    { name: 'stateBefore', type: 'text' },
    { name: 'stateAfter', type: 'text' },
    { name: 'reason', type: 'textarea' },
    { name: 'at', type: 'date', required: true, index: true, admin: { date: { overrides: { title: 'At' } } } },
  ],
  timestamps: true,
}
