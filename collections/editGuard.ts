/**
 * The documents the console edits (issue 53.2): each gets `editedBy`, its last console editor
 * (shown in the edit view's sidebar), and the edit guard (./hooks/editGuard: a save read at an
 * older version than the stored one is refused, 409, naming who changed it and when), first
 * among its beforeChange hooks. Applied in payload.config.ts, as the relationship checks are.
 */
import type { CollectionConfig, Field, GlobalConfig } from 'payload'

import { collectionEditGuard, globalEditGuard } from './hooks/editGuard'

/** The collections the console's people edit, and what they call one document. */
export const EDITED: Record<string, string> = {
  content: 'item',
  tags: 'tag',
  surfaces: 'surface',
  groups: 'group',
  channels: 'channel',
  platforms: 'platform',
  facets: 'facet',
  media: 'file',
}

/**
 * The last console editor's user id (text, not a relationship: no foreign key to rebuild tables
 * for, and users are never removed); the sidebar names them (LastEdited.tsx).
 */
const editedBy: Field = { name: 'editedBy', type: 'text', admin: { hidden: true } }
const lastEdited: Field = {
  name: 'lastEdited',
  type: 'ui',
  admin: { position: 'sidebar', components: { Field: '/app/(payload)/admin/_components/LastEdited#LastEdited' } },
}

/**
 * A document's lock lasts this long without a sign of its holder: the edit view keeps its lock
 * alive every few seconds (LastEdited.tsx), so a closed tab's lock ends within this, not after
 * Payload's default five minutes.
 */
export const LOCK_SECONDS = 20

export function withEditGuard(collections: CollectionConfig[]): CollectionConfig[] {
  return collections.map((c) =>
    EDITED[c.slug]
      ? {
          ...c,
          lockDocuments: { duration: LOCK_SECONDS },
          fields: [...c.fields, editedBy, lastEdited],
          hooks: { ...c.hooks, beforeChange: [collectionEditGuard(EDITED[c.slug]!), ...(c.hooks?.beforeChange ?? [])] },
        }
      : c,
  )
}

export function withGlobalEditGuard(globals: GlobalConfig[]): GlobalConfig[] {
  return globals.map((g) => ({ ...g, lockDocuments: { duration: LOCK_SECONDS }, fields: [...g.fields, editedBy, lastEdited], hooks: { ...g.hooks, beforeChange: [globalEditGuard('page'), ...(g.hooks?.beforeChange ?? [])] } }))
}
