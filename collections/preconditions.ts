/**
 * The collections whose records the API answers with a version (ETag) and updates conditionally
 * (If-Match): the taxonomy, tags, users and roles. Their guard runs first among the beforeChange
 * hooks (./hooks/preconditions). Applied in payload.config.ts, as the edit guard is.
 */
import type { CollectionConfig } from 'payload'

import { preconditionGuard } from './hooks/preconditions'

export const VERSIONED = new Set(['surfaces', 'groups', 'channels', 'platforms', 'tags', 'users', 'roles'])

export function withPreconditions(collections: CollectionConfig[]): CollectionConfig[] {
  return collections.map((c) => (VERSIONED.has(c.slug) ? { ...c, hooks: { ...c.hooks, beforeChange: [preconditionGuard, ...(c.hooks?.beforeChange ?? [])] } } : c))
}
