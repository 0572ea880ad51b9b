import type { CollectionConfig } from 'payload'

import { allowIf } from '../access/collectionAccess'

/** The audit trail of tag renames, written in the same transaction as the rename itself. */
export const TagRenames: CollectionConfig = {
  slug: 'tag-renames',
  labels: { singular: 'Tag rename', plural: 'Tag renames' },
  admin: { useAsTitle: 'newSlug', defaultColumns: ['oldSlug', 'newSlug', 'contentCount', 'actor', 'at'], group: 'Taxonomy' },
  access: {
    read: allowIf('tag.manage'),
    create: () => false,
    update: () => false,
    delete: () => false,
  },
  defaultSort: '-at',
  fields: [
    { name: 'actor', type: 'relationship', relationTo: 'users' },
    { name: 'oldSlug', type: 'text', required: true, index: true },
    { name: 'newSlug', type: 'text', required: true, index: true },
    { name: 'contentCount', type: 'number', required: true },
    { name: 'at', type: 'date', required: true, admin: { date: { overrides: { title: 'At' } } } },
  ],
  timestamps: true,
}
