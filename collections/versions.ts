/**
 * History where an editor wants it (issue 53.2): Payload's versions on content, the taxonomy and
 * the branding, the last VERSIONS_KEPT of each document. Those who may change a document may read
 * its history (a content item's versions hold its pending and rejected states); a restore needs
 * update access, runs every rule a save runs (the edit, workflow and slug guards, relationship
 * checks), and brings back the content, never the workflow: status, soft delete and renamed slugs
 * keep their current values (src/services/workflowGuard's keepWorkflowFields). Applied in
 * payload.config.ts, as the edit guard is.
 */
import type { CollectionConfig, GlobalConfig } from 'payload'

/** Versions kept per document: enough for an editor's afternoon, bounded for a million items. */
export const VERSIONS_KEPT = 25

const WITH_HISTORY = new Set(['content', 'tags', 'surfaces', 'groups', 'channels', 'platforms', 'facets'])

export function withVersions(collections: CollectionConfig[]): CollectionConfig[] {
  return collections.map((c) =>
    WITH_HISTORY.has(c.slug) ? { ...c, versions: { maxPerDoc: VERSIONS_KEPT }, access: { ...c.access, readVersions: c.access?.update ?? (() => false) } } : c,
  )
}

export function withGlobalVersions(globals: GlobalConfig[]): GlobalConfig[] {
  return globals.map((g) => ({ ...g, versions: { max: VERSIONS_KEPT }, access: { ...g.access, readVersions: g.access?.update ?? (() => false) } }))
}
