import type { CollectionConfig } from 'payload'

import { taxonomyAccess } from '../access/collectionAccess'
import { domainWriteHooks } from './hooks/domainWrites'
import { siblingListHook } from './hooks/siblingLists'
import { renameOnlyGuard } from './hooks/workflowFields'
import { colorField, displayOrderField, isActiveField, labelField, slugField } from './taxonomyFields'

/** Groups within a surface; the slug is unique per surface (composite unique index). */
const taxonomyWrites = domainWriteHooks('taxonomy')

export const Groups: CollectionConfig = {
  slug: 'groups',
  admin: {
    useAsTitle: 'label',
    defaultColumns: ['label', 'slug', 'surface', 'displayOrder', 'isActive'],
    listSearchableFields: ['label', 'slug'],
    group: 'Taxonomy',
  },
  access: taxonomyAccess,
  defaultSort: 'displayOrder',
  indexes: [{ fields: ['surface', 'slug'], unique: true }],
  hooks: {
    beforeChange: [renameOnlyGuard('group')],
    afterChange: [siblingListHook('groups', 'surface'), ...taxonomyWrites.afterChange],
    afterDelete: taxonomyWrites.afterDelete,
  },
  fields: [
    { name: 'surface', type: 'relationship', relationTo: 'surfaces', required: true, index: true },
    slugField({ unique: false }),
    labelField,
    colorField('color'),
    displayOrderField,
    isActiveField,
  ],
  timestamps: true,
}
