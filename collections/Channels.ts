import type { CollectionConfig } from 'payload'

import { taxonomyAccess } from '../access/collectionAccess'
import { domainWriteHooks } from './hooks/domainWrites'
import { siblingListHook } from './hooks/siblingLists'
import { renameOnlyGuard } from './hooks/workflowFields'
import { displayOrderField, isActiveField, labelField, slugField } from './taxonomyFields'

/** Channels within a group; the slug is unique per group (composite unique index). */
const taxonomyWrites = domainWriteHooks('taxonomy')

export const Channels: CollectionConfig = {
  slug: 'channels',
  admin: {
    useAsTitle: 'label',
    defaultColumns: ['label', 'slug', 'group', 'displayOrder', 'isActive'],
    listSearchableFields: ['label', 'slug'],
    group: 'Taxonomy',
  },
  access: taxonomyAccess,
  defaultSort: 'displayOrder',
  indexes: [{ fields: ['group', 'slug'], unique: true }],
  hooks: {
    beforeChange: [renameOnlyGuard('channel')],
    afterChange: [siblingListHook('channels', 'group'), ...taxonomyWrites.afterChange],
    afterDelete: taxonomyWrites.afterDelete,
  },
  fields: [
    { name: 'group', type: 'relationship', relationTo: 'groups', required: true, index: true },
    slugField({ unique: false }),
    labelField,
    displayOrderField,
    isActiveField,
  ],
  timestamps: true,
}
