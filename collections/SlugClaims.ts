import type { CollectionConfig } from 'payload'

import { SLUG_ENTITIES } from '../src/services/slugClaims'

/**
 * One row per slug held by a tag, a content item or a surface: the spec makes those slugs
 * globally unique, and a unique index spans one table, so this table's unique `slug` is what
 * refuses a second holder across the three, races included, on both engines. Written in the
 * same transaction as its holder (collections/hooks/slugClaims.ts; the rename plans; bulk
 * loads); nobody reads or writes it through REST.
 */
export const SlugClaims: CollectionConfig = {
  slug: 'slug-claims',
  admin: { hidden: true },
  access: { read: () => false, create: () => false, update: () => false, delete: () => false },
  fields: [
    { name: 'slug', type: 'text', required: true, unique: true },
    { name: 'entity', type: 'select', required: true, options: [...SLUG_ENTITIES] },
    { name: 'owner', type: 'text', required: true, index: true },
  ],
  timestamps: false,
}
