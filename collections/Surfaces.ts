import type { CollectionConfig } from 'payload'

import { taxonomyAccess } from '../access/collectionAccess'
import { domainWriteHooks } from './hooks/domainWrites'
import { claimSlug } from './hooks/slugClaims'
import { siblingListHook } from './hooks/siblingLists'
import { renameOnlyGuard } from './hooks/workflowFields'
import { browseModeField, colorField, displayOrderField, isActiveField, labelField, routePrefixField, slugField } from './taxonomyFields'

/** Top level of the navigation tree. Never hard-deleted: deactivate instead. */
const taxonomyWrites = domainWriteHooks('taxonomy')

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
  // The slug is claimed among tags, content and surfaces in the write's transaction (global uniqueness).
  hooks: {
    beforeChange: [renameOnlyGuard('surface')],
    afterChange: [claimSlug('surface'), siblingListHook('surfaces'), ...taxonomyWrites.afterChange],
    afterDelete: taxonomyWrites.afterDelete,
  },
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
