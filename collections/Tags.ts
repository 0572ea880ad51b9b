import type { CollectionConfig } from 'payload'

import { allowIf, consoleRead } from '../access/collectionAccess'
import { domainWriteHooks } from './hooks/domainWrites'
import { claimSlug } from './hooks/slugClaims'
import { tagSlugGuard } from './hooks/workflowFields'
import { labelField, slugField } from './taxonomyFields'

/** Tags, each in one facet. Never deleted; rename is the editorial operation. */
const taxonomyWrites = domainWriteHooks('taxonomy')

export const Tags: CollectionConfig = {
  slug: 'tags',
  admin: {
    useAsTitle: 'label',
    defaultColumns: ['label', 'slug', 'facet', 'updatedAt'],
    listSearchableFields: ['label', 'slug'],
    group: 'Taxonomy',
  },
  access: {
    read: consoleRead,
    create: allowIf('tag.manage'),
    update: allowIf('tag.manage'),
    delete: () => false,
  },
  defaultSort: 'label',
  // The slug is claimed among tags, content and surfaces in the write's transaction (global uniqueness).
  hooks: { beforeChange: [tagSlugGuard], afterChange: [claimSlug('tag'), ...taxonomyWrites.afterChange], afterDelete: taxonomyWrites.afterDelete },
  fields: [
    slugField({ unique: true }),
    { ...labelField, index: true },
    { name: 'facet', type: 'relationship', relationTo: 'facets', required: true, index: true },
    {
      name: 'renameAction',
      type: 'ui',
      admin: { position: 'sidebar', components: { Field: '/app/(payload)/admin/_components/TagRenameAction#TagRenameAction' } },
    },
  ],
  timestamps: true,
}
