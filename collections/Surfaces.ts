import type { CollectionConfig } from 'payload'

import { taxonomyAccess } from '../access/collectionAccess'
import { taxonomyConsoleEndpoints } from '../endpoints/adminTaxonomy'
import { domainWriteHooks } from '../src/services/domainWriteHooks'
import { renameOnlyGuard } from '../src/services/taxonomyWrites'
import { colorField, displayOrderField, isActiveField, labelField, slugField } from './taxonomyFields'

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
  endpoints: taxonomyConsoleEndpoints,
  hooks: { beforeChange: [renameOnlyGuard('surface')], ...domainWriteHooks('taxonomy') },
  fields: [
    slugField({ unique: true }),
    labelField,
    { name: 'routePrefix', type: 'text', required: true, admin: { description: 'Path prefix, e.g. /learn' } },
    {
      name: 'browseMode',
      type: 'select',
      required: true,
      defaultValue: 'grid',
      options: ['grid', 'list', 'feed'],
    },
    colorField('accentColor', '#3b82f6'),
    displayOrderField,
    isActiveField,
  ],
  timestamps: true,
}
