/**
 * Seeding: the demo data set (taxonomy through Payload so hooks and validation run, content
 * in bulk through src/db) and N approved items for benchmarks. Deterministic per seed value.
 */
import type { Payload } from 'payload'

import { engine, type ContentStatus, type NewContent, type NewTag } from '../db/engine'
import { suggestSlug } from '../slug'

type Id = string
export type DemoTaxonomy = { groups: { id: Id; channels: Id[] }[]; platforms: Id[]; tags: string[] }

/** mulberry32: small, fast, reproducible. */
function rng(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]! }
}

const WORDS = [
  'typescript', 'react', 'database', 'design', 'patterns', 'testing', 'performance', 'security', 'cloud', 'rust',
  'python', 'guide', 'deep', 'dive', 'introduction', 'advanced', 'modern', 'practical', 'building', 'scaling',
  'search', 'index', 'queries', 'caching', 'streams', 'async', 'compiler', 'network', 'kernel', 'browser',
  'mobile', 'layout', 'color', 'typography', 'music', 'theory', 'history', 'science', 'physics', 'math',
  'algebra', 'graphs', 'machine', 'learning', 'vision', 'audio', 'video', 'editing', 'photo', 'garden',
] as const

const SURFACES = [
  { slug: 'learn', label: 'Learn', routePrefix: '/learn', browseMode: 'grid', accentColor: '#2563eb' },
  { slug: 'discover', label: 'Discover', routePrefix: '/discover', browseMode: 'feed', accentColor: '#db2777' },
]
const GROUPS = [
  { surface: 'learn', slug: 'programming', label: 'Programming', color: '#1d4ed8', channels: ['web', 'systems'] },
  { surface: 'learn', slug: 'data', label: 'Data', color: '#0891b2', channels: ['databases', 'ml'] },
  { surface: 'discover', slug: 'design', label: 'Design', color: '#9333ea', channels: ['visual', 'ux'] },
  { surface: 'discover', slug: 'science', label: 'Science', color: '#16a34a', channels: ['physics', 'maths'] },
]
const PLATFORMS = [
  { slug: 'youtube', label: 'YouTube', color: '#ff0000' },
  { slug: 'blog', label: 'Blog', color: '#f59e0b' },
  { slug: 'podcast', label: 'Podcast', color: '#8b5cf6' },
]
const DEMO_TAGS: Record<string, string[]> = {
  topic: ['javascript', 'sql', 'statistics', 'colour-theory'],
  format: ['tutorial', 'talk', 'article', 'course'],
  level: ['beginner', 'intermediate', 'expert', 'all-levels'],
  'source-type': ['official-docs', 'community', 'academic', 'vendor'],
  unclassified: ['misc', 'opinion', 'news', 'archive'],
}

/**
 * Pseudo-words (syllable triples) widen the vocabulary so that, as in real text, one word
 * matches about 1-2% of items: topical words (the real ones above plus 150 more) and a
 * general pool of 1000. A 50-word vocabulary would put every word in a third of all items.
 */
const SYLLABLES = ['ba', 'ko', 'ri', 'tu', 'se', 'mo', 'na', 'li', 'pe', 'du', 'ga', 'vi', 'ro', 'ze', 'fa']
const pseudo = (n: number) => SYLLABLES[n % 15]! + SYLLABLES[Math.floor(n / 15) % 15]! + SYLLABLES[Math.floor(n / 225) % 15]!
const TOPICAL: readonly string[] = [...WORDS, ...Array.from({ length: 150 }, (_, i) => pseudo(i * 7 + 3))]
/** Exported for the benchmark's cold-search row. */
export const GENERAL: readonly string[] = Array.from({ length: 1000 }, (_, i) => pseudo(1200 + i * 2))

const words = (r: ReturnType<typeof rng>, topical: number, general: number) => {
  const out = [...Array.from({ length: topical }, () => r.pick(TOPICAL)), ...Array.from({ length: general }, () => r.pick(GENERAL))]
  for (let i = out.length - 1; i > 0; i--) {
    const j = r.int(i + 1)
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}
const title = (r: ReturnType<typeof rng>) =>
  words(r, 1, 2 + r.int(3))
    .map((w, i) => (i === 0 ? w[0]!.toUpperCase() + w.slice(1) : w))
    .join(' ')
const sentence = (r: ReturnType<typeof rng>) => `${words(r, 2, 8 + r.int(8)).join(' ')}.`

async function facetIds(payload: Payload): Promise<Map<string, Id>> {
  const res = await payload.find({ collection: 'facets', pagination: false, depth: 0, overrideAccess: true })
  return new Map(res.docs.map((f: any) => [f.key, String(f.id)]))
}

/** The demo taxonomy, created through Payload; reuses what already exists (by slug). */
export async function seedDemoTaxonomy(payload: Payload): Promise<DemoTaxonomy> {
  const findOrCreate = async (collection: any, where: any, data: any): Promise<Id> => {
    const found = await payload.find({ collection, where, limit: 1, depth: 0, overrideAccess: true })
    if (found.docs[0]) return String(found.docs[0].id)
    return String((await payload.create({ collection, data, overrideAccess: true })).id)
  }
  const surfaceIds = new Map<string, Id>()
  for (const [i, s] of SURFACES.entries()) {
    surfaceIds.set(s.slug, await findOrCreate('surfaces', { slug: { equals: s.slug } }, { ...s, displayOrder: i }))
  }
  const groups: DemoTaxonomy['groups'] = []
  for (const [i, g] of GROUPS.entries()) {
    const surface = surfaceIds.get(g.surface)!
    const id = await findOrCreate('groups', { and: [{ slug: { equals: g.slug } }, { surface: { equals: surface } }] }, {
      surface, slug: g.slug, label: g.label, color: g.color, displayOrder: i,
    })
    const channels: Id[] = []
    for (const [j, c] of g.channels.entries()) {
      channels.push(
        await findOrCreate('channels', { and: [{ slug: { equals: c } }, { group: { equals: id } }] }, {
          group: id, slug: c, label: c[0]!.toUpperCase() + c.slice(1), displayOrder: j,
        }),
      )
    }
    groups.push({ id, channels })
  }
  const platforms: Id[] = []
  for (const [i, p] of PLATFORMS.entries()) {
    platforms.push(await findOrCreate('platforms', { slug: { equals: p.slug } }, { ...p, displayOrder: i }))
  }
  const facets = await facetIds(payload)
  const tags: string[] = []
  for (const [facet, slugs] of Object.entries(DEMO_TAGS)) {
    for (const slug of slugs) {
      const label = slug.split('-').map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ')
      await findOrCreate('tags', { slug: { equals: slug } }, { slug, label, facet: facets.get(facet) })
      tags.push(slug)
    }
  }
  return { groups, platforms, tags }
}

type ItemOptions = { count: number; statuses: ContentStatus[]; seed: number; submittedBy: Id | null; slugPrefix: string }

function makeItems(tax: DemoTaxonomy, o: ItemOptions): NewContent[] {
  const r = rng(o.seed)
  const now = Date.now()
  const YEAR = 365 * 24 * 3_600_000
  const items: NewContent[] = []
  for (let i = 0; i < o.count; i++) {
    const group = r.pick(tax.groups)
    const status = o.statuses[i % o.statuses.length]!
    const t = title(r)
    const created = new Date(now - r.int(YEAR)).toISOString()
    const tagCount = 1 + r.int(3)
    const tagSlugs = [...new Set(Array.from({ length: tagCount }, () => r.pick(tax.tags)))]
    items.push({
      slug: `${suggestSlug(t).slice(0, 40).replace(/-+$/, '')}-${o.slugPrefix}${i.toString(36)}`,
      title: t,
      description: sentence(r),
      url: `https://example.com/${o.slugPrefix}/${i}`,
      tagSlugs,
      groupId: group.id,
      channelId: r.pick(group.channels),
      platformId: r.pick(tax.platforms),
      status,
      isActive: r.next() > 0.03,
      submittedBy: o.submittedBy,
      approvedAt: status === 'approved' ? created : null,
      rejectionReason: status === 'rejected' ? 'Off topic for this collection.' : null,
      createdAt: created,
      updatedAt: created,
    })
  }
  return items
}

async function anyAdminId(payload: Payload): Promise<Id | null> {
  const res = await payload.find({ collection: 'users', limit: 1, depth: 0, overrideAccess: true, sort: 'createdAt' })
  return res.docs[0] ? String(res.docs[0].id) : null
}

/** The demo data set: taxonomy plus 200 items in all three states. */
export async function seedDemo(payload: Payload): Promise<{ content: number }> {
  const tax = await seedDemoTaxonomy(payload)
  // Deterministic slugs on an empty database; a repeated demo seed must not collide.
  const existing = await engine().contentStore(payload).countContent()
  const items = makeItems(tax, {
    count: 200,
    statuses: ['approved', 'approved', 'approved', 'pending', 'rejected'],
    seed: 42,
    submittedBy: await anyAdminId(payload),
    slugPrefix: existing === 0 ? 'd' : `d${Date.now().toString(36)}`,
  })
  await engine().contentStore(payload).insertContent(items)
  return { content: items.length }
}

/** The demo seed at start-up (SEED_DEMO=true) only when the database holds no content. */
export async function seedDemoIfEmpty(payload: Payload): Promise<boolean> {
  if ((await engine().contentStore(payload).countContent()) > 0) return false
  await seedDemo(payload)
  return true
}

/** `count` extra tags spread over every facet, inserted in bulk. */
export async function seedTags(payload: Payload, count: number, seed = 7): Promise<string[]> {
  const facets = [...(await facetIds(payload)).values()]
  const run = (seed + Date.now()).toString(36)
  const stamp = new Date().toISOString()
  const rows: NewTag[] = Array.from({ length: count }, (_, i) => ({
    slug: `tag-${run}-${i}`,
    label: `Tag ${run} ${String(i).padStart(5, '0')}`,
    facetId: facets[i % facets.length]!,
    createdAt: stamp,
    updatedAt: stamp,
  }))
  await engine().contentStore(payload).insertTags(rows)
  return rows.map((r) => r.slug)
}

/** N approved items over the demo taxonomy (created if missing) and the given tag pool. */
export async function seedContent(payload: Payload, count: number, opts: { tags?: string[]; seed?: number } = {}): Promise<number> {
  const tax = await seedDemoTaxonomy(payload)
  const seed = opts.seed ?? Date.now() % 1_000_000
  const items = makeItems(
    { ...tax, tags: opts.tags?.length ? opts.tags : tax.tags },
    { count, statuses: ['approved'], seed, submittedBy: await anyAdminId(payload), slugPrefix: `b${seed.toString(36)}` },
  )
  for (const item of items) item.isActive = true
  await engine().contentStore(payload).insertContent(items)
  return items.length
}
