/**
 * The navigation catalog and the taxonomy lookups the list endpoints use. Built from the
 * database and kept per taxonomy generation (src/db/freshness/generations): a memory read per call, a
 * rebuild only after a write, by any path in any process.
 */
import type { Payload } from 'payload'

import { engine } from '../db/engine'
import { perDatabase, VersionedValue } from '../db/freshness'
import { weakEtag } from '../platform/entityTag'
import { answerSerializer, type SerializedAnswer } from '../platform/serializedAnswer'
import { domainVersion } from './domainVersions'
import type { CatalogRecord } from './dtos'


/** Slug/id lookups over every taxonomy row, active or not. */
export type Taxonomy = {
  groupSlugById: Map<string, string>
  channelSlugById: Map<string, string>
  platformSlugById: Map<string, string>
  /** Group slugs are unique per surface only: one slug may name several groups. */
  groupIdsBySlug: Map<string, string[]>
  channelIdByGroupAndSlug: Map<string, string>
  platformIdBySlug: Map<string, string>
  facetIdByKey: Map<string, string>
  facetKeyById: Map<string, string>
  /** Slugs items may hold that are no tag's while a tag rename runs in steps: left out of answers. */
  hiddenTagSlugs: ReadonlySet<string>
}

/** The record, its answer serialized once (GET /catalog writes these bytes), and the lookups. */
type Snapshot = { record: CatalogRecord; answer: SerializedAnswer; taxonomy: Taxonomy }

type Row = Record<string, any>
const ref = (v: unknown): string | null =>
  v == null ? null : typeof v === 'object' ? String((v as { id: unknown }).id) : String(v)
const byOrder = (a: Row, b: Row) =>
  Number(a.displayOrder ?? 0) - Number(b.displayOrder ?? 0) || String(a.slug ?? a.key).localeCompare(String(b.slug ?? b.key))

/** Each database's own (kept values never cross Payload instances). */
const snapshotsOf = perDatabase(() => new VersionedValue<Snapshot>('catalog'))

async function load(payload: Payload, collection: string, sort = 'displayOrder'): Promise<Row[]> {
  const res = await payload.find({
    collection: collection as 'surfaces',
    depth: 0,
    pagination: false,
    overrideAccess: true,
    sort,
  })
  return res.docs as Row[]
}

async function build(payload: Payload): Promise<Snapshot> {
  const [surfaces, groups, channels, platforms, facets, lastTag] = await Promise.all([
    load(payload, 'surfaces'),
    load(payload, 'groups'),
    load(payload, 'channels'),
    load(payload, 'platforms'),
    load(payload, 'facets'),
    payload.find({ collection: 'tags', depth: 0, limit: 1, sort: '-updatedAt', overrideAccess: true, select: { updatedAt: true } }),
  ])
  const activeGroups = groups.filter((g) => g.isActive !== false).sort(byOrder)
  const activeChannels = channels.filter((c) => c.isActive !== false).sort(byOrder)
  const stamps = [...surfaces, ...groups, ...channels, ...platforms, ...facets, ...lastTag.docs].map((r) => String(r.updatedAt ?? ''))
  const updatedAt = stamps.reduce((max, s) => (s > max ? s : max), '') || new Date(0).toISOString()

  const body: Omit<CatalogRecord, 'etag'> = {
    surfaces: surfaces
      .filter((s) => s.isActive !== false)
      .sort(byOrder)
      .map((s) => ({
        slug: s.slug,
        label: s.label,
        routePrefix: s.routePrefix,
        browseMode: s.browseMode,
        accentColor: s.accentColor,
        displayOrder: Number(s.displayOrder ?? 0),
        groups: activeGroups
          .filter((g) => ref(g.surface) === String(s.id))
          .map((g) => ({
            slug: g.slug,
            label: g.label,
            color: g.color,
            displayOrder: Number(g.displayOrder ?? 0),
            channels: activeChannels
              .filter((c) => ref(c.group) === String(g.id))
              .map((c) => ({ slug: c.slug, label: c.label, displayOrder: Number(c.displayOrder ?? 0) })),
          })),
      })),
    facets: [...facets].sort(byOrder).map((f) => ({ key: f.key, label: f.label, color: f.color })),
    platforms: platforms
      .filter((p) => p.isActive !== false)
      .sort(byOrder)
      .map((p) => ({ slug: p.slug, label: p.label, color: p.color })),
    updatedAt: new Date(updatedAt).toISOString(),
  }
  const record: CatalogRecord = { ...body, etag: weakEtag(JSON.stringify(body)) }

  const taxonomy: Taxonomy = {
    groupSlugById: new Map(groups.map((g) => [String(g.id), g.slug])),
    channelSlugById: new Map(channels.map((c) => [String(c.id), c.slug])),
    platformSlugById: new Map(platforms.map((p) => [String(p.id), p.slug])),
    groupIdsBySlug: new Map(),
    channelIdByGroupAndSlug: new Map(channels.map((c) => [`${ref(c.group)}/${c.slug}`, String(c.id)])),
    platformIdBySlug: new Map(platforms.map((p) => [p.slug, String(p.id)])),
    facetIdByKey: new Map(facets.map((f) => [f.key, String(f.id)])),
    facetKeyById: new Map(facets.map((f) => [String(f.id), f.key])),
    hiddenTagSlugs: await engine().contentStore(payload).hiddenTagSlugs(),
  }
  for (const g of groups) {
    const list = taxonomy.groupIdsBySlug.get(g.slug) ?? []
    list.push(String(g.id))
    taxonomy.groupIdsBySlug.set(g.slug, list)
  }
  return { record, answer: answerSerializer.serialize(record, undefined, { etag: record.etag }), taxonomy }
}

/** The current snapshot: one build per taxonomy generation. */
function current(payload: Payload): Promise<Snapshot> {
  const version = domainVersion(payload, 'taxonomy')
  return snapshotsOf(payload.db).get(version, () => build(payload))
}

/** GET /catalog's answer: the record's bytes and its ETag, serialized once per taxonomy version. */
export async function catalogAnswer(payload: Payload): Promise<SerializedAnswer> {
  return (await current(payload)).answer
}

export async function getTaxonomy(payload: Payload): Promise<Taxonomy> {
  return (await current(payload)).taxonomy
}

/** Start-up priming, so the first request is served from memory. */
export async function primeCatalog(payload: Payload): Promise<void> {
  await current(payload)
}
