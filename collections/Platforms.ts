import type { CollectionConfig } from 'payload'

import { taxonomyAccess } from '../access/collectionAccess'
import { domainWriteHooks } from './hooks/domainWrites'
import { renameOnlyGuard } from './hooks/workflowFields'
import { colorField, displayOrderField, isActiveField, labelField, slugField } from './taxonomyFields'

/** Where content lives (YouTube, a blog host...). */
export const Platforms: CollectionConfig = {
  slug: 'platforms',
  admin: {
    useAsTitle: 'label',
    defaultColumns: ['label', 'slug', 'color', 'displayOrder', 'isActive'],
    listSearchableFields: ['label', 'slug'],
    group: 'Taxonomy',
  },
  access: taxonomyAccess,
  defaultSort: 'displayOrder',
  hooks: { beforeChange: [renameOnlyGuard('platform')], ...domainWriteHooks('taxonomy') },
  fields: [slugField({ unique: true }), labelField, colorField('color'), displayOrderField, isActiveField],
  timestamps: true,
}
