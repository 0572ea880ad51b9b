import type { CollectionConfig } from 'payload'

import { taxonomyAccess } from '../access/collectionAccess'
import { domainWriteHooks } from './hooks/domainWrites'
import { renameOnlyGuard } from './hooks/workflowFields'
import { browseModeField, colorField, displayOrderField, isActiveField, labelField, routePrefixField, slugField } from './taxonomyFields'

/** Top level of the navigation tree. Never hard-deleted: deactivate instead. */
export const Surfaces: CollectionConfig = {
  slug: 'surfaces',
  admin: {
    useAsTitle: 'label',
    defaultColumns: ['label', 'slug', 'routePrefix', 'displayOrder', 'isActive'],
    listSearchableFields: ['label', 'slug'],
    group: 'Taxonomy',
  },
  access: taxonomyAccess,
  defaultSort: 'displayOrder',
  hooks: { beforeChange: [renameOnlyGuard('surface')], ...domainWriteHooks('taxonomy') },
  fields: [
    slugField({ unique: true }),
    labelField,
    routePrefixField,
    browseModeField,
    colorField('accentColor', '#3b82f6'),
    displayOrderField,
    isActiveField,
  ],
  timestamps: true,
}
