import type { CollectionConfig } from 'payload'

import { taxonomyAccess } from '../access/collectionAccess'
import { domainWriteHooks } from './hooks/domainWrites'
import { renameOnlyGuard } from './hooks/workflowFields'
import { TEXT_LIMITS, textValidator } from '../src/platform/text'
import { colorField, labelField } from './taxonomyFields'

export const Facets: CollectionConfig = {
  slug: 'facets',
  admin: { useAsTitle: 'label', defaultColumns: ['label', 'key', 'color', 'displayOrder'], group: 'Taxonomy' },
  access: taxonomyAccess,
  defaultSort: 'displayOrder',
  hooks: { beforeChange: [renameOnlyGuard('facet')], ...domainWriteHooks('taxonomy') },
  fields: [
    { name: 'key', type: 'text', required: true, unique: true, index: true, validate: textValidator(TEXT_LIMITS.facetKey) },
    labelField,
    colorField('color'),
    { name: 'displayOrder', type: 'number', defaultValue: 0 },
  ],
  timestamps: true,
}
