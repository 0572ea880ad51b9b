import type { CollectionConfig } from 'payload'

import { allowIf } from '../access/collectionAccess'

/** What a submitter is told about their items (written by follow-up jobs, never by hand). */
export const Notifications: CollectionConfig = {
  slug: 'notifications',
  admin: { useAsTitle: 'message', defaultColumns: ['message', 'user', 'kind', 'createdAt'], group: 'Content' },
  access: {
    read: allowIf('user.manage'),
    create: () => false,
    update: () => false,
    delete: () => false,
  },
  fields: [
    { name: 'user', type: 'relationship', relationTo: 'users', required: true, index: true },
    { name: 'kind', type: 'select', required: true, options: ['content.approved', 'content.rejected'] },
    { name: 'content', type: 'relationship', relationTo: 'content', required: true },
    { name: 'message', type: 'text', required: true },
    { name: 'readAt', type: 'date' },
  ],
  // One notification per item and decision, whatever runs the follow-up how often.
  indexes: [{ fields: ['content', 'kind'], unique: true }],
  timestamps: true,
}
