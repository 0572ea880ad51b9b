/**
 * Seeding: the demo deployment (src/seed/demo*.ts: a real-looking taxonomy, demo members and
 * 300+ curated resources in all three states; taxonomy and users through Payload so hooks and
 * validation run, content in bulk through src/db) and, separately, N generated approved items
 * for benchmarks. Deterministic per seed value.
 */
import type { CollectionSlug, Payload, RequiredDataFromCollectionSlug, Where } from 'payload'

import { engine, type BulkProgress, type ContentStatus, type NewContent, type NewTag } from '../db/engine'
import { SYSTEM_GRANTOR } from '../services/grants'
import { createUser } from '../services/users'
import { suggestSlug } from '../platform/slug'
import { demoResources } from './demoResources'
import { DEMO_GROUPS, DEMO_MEMBER_PASSWORD, DEMO_MEMBERS, DEMO_PLATFORMS, DEMO_SURFACES, DEMO_TAGS, tagLabel } from './demoTaxonomy'
import { rng } from './random'
import { payloadWrite } from '../db/payloadWrite'

type Id = string
export type DemoTaxonomy = {
  groups: { id: Id; slug: string; channels: Id[]; channelBySlug: Map<string, Id> }[]
  platforms: Id[]
  platformBySlug: Map<string, Id>
  tags: string[]
}


const WORDS = [
  'typescript', 'react', 'database', 'design', 'patterns', 'testing', 'performance', 'security', 'cloud', 'rust',
  'python', 'guide', 'deep', 'dive', 'introduction', 'advanced', 'modern', 'practical', 'building', 'scaling',
  'search', 'index', 'queries', 'caching', 'streams', 'async', 'compiler', 'network', 'kernel', 'browser',
  'mobile', 'layout', 'color', 'typography', 'music', 'theory', 'history', 'science', 'physics', 'math',
  'algebra', 'graphs', 'machine', 'learning', 'vision', 'audio', 'video', 'editing', 'photo', 'garden',
] as const

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
  return new Map(res.docs.map((f) => [f.key, String(f.id)]))
}

/** The demo taxonomy, created through Payload; reuses what already exists (by slug). */
export async function seedDemoTaxonomy(payload: Payload): Promise<DemoTaxonomy> {
  const findOrCreate = async <S extends CollectionSlug>(collection: S, where: Where, data: RequiredDataFromCollectionSlug<S>): Promise<Id> => {
    const found = await payload.find({ collection, where, limit: 1, depth: 0, overrideAccess: true })
    if (found.docs[0]) return String(found.docs[0].id)
    return String((await payloadWrite(() => payload.create({ collection, data, overrideAccess: true }))).id)
  }
  const surfaceIds = new Map<string, Id>()
  for (const [i, s] of DEMO_SURFACES.entries()) {
    surfaceIds.set(s.slug, await findOrCreate('surfaces', { slug: { equals: s.slug } }, { ...s, displayOrder: i }))
  }
  const groups: DemoTaxonomy['groups'] = []
  for (const [i, g] of DEMO_GROUPS.entries()) {
    const surface = surfaceIds.get(g.surface)!
    const id = await findOrCreate('groups', { and: [{ slug: { equals: g.slug } }, { surface: { equals: surface } }] }, {
      surface, slug: g.slug, label: g.label, color: g.color, displayOrder: i,
    })
    const channelBySlug = new Map<string, Id>()
    for (const [j, c] of g.channels.entries()) {
      channelBySlug.set(
        c.slug,
        await findOrCreate('channels', { and: [{ slug: { equals: c.slug } }, { group: { equals: id } }] }, {
          group: id, slug: c.slug, label: c.label, displayOrder: j,
        }),
      )
    }
    groups.push({ id, slug: g.slug, channels: [...channelBySlug.values()], channelBySlug })
  }
  const platformBySlug = new Map<string, Id>()
  for (const [i, p] of DEMO_PLATFORMS.entries()) {
    platformBySlug.set(p.slug, await findOrCreate('platforms', { slug: { equals: p.slug } }, { slug: p.slug, label: p.label, color: p.color, displayOrder: i }))
  }
  const facets = await facetIds(payload)
  const tags: string[] = []
  for (const [facet, entries] of Object.entries(DEMO_TAGS)) {
    const facetId = facets.get(facet)
    // Bootstrap creates the starting facets before anything seeds.
    if (!facetId) throw new Error(`seed: facet "${facet}" is missing`)
    for (const entry of entries) {
      const { slug, label } = tagLabel(entry)
      await findOrCreate('tags', { slug: { equals: slug } }, { slug, label, facet: facetId })
      tags.push(slug)
    }
  }
  return { groups, platforms: [...platformBySlug.values()], platformBySlug, tags }
}

/** The demo members (role member), created once; their ids in DEMO_MEMBERS order. */
export async function seedDemoMembers(payload: Payload): Promise<Id[]> {
  const ids: Id[] = []
  for (const m of DEMO_MEMBERS) {
    const found = await payload.find({ collection: 'users', where: { email: { equals: m.email } }, limit: 1, depth: 0, overrideAccess: true })
    ids.push(found.docs[0] ? String(found.docs[0].id) : String((await createUser(payload, { ...m, password: DEMO_MEMBER_PASSWORD }, SYSTEM_GRANTOR)).id))
  }
  return ids
}

type ItemOptions = { count: number; statuses: ContentStatus[]; seed: number; submittedBy: Id | null; slugPrefix: string }

function makeItems(tax: DemoTaxonomy, o: ItemOptions): NewContent[] {
  return [...itemStream(tax, o)]
}

/** The items one at a time, so a million never sit in memory together. */
function* itemStream(tax: DemoTaxonomy, o: ItemOptions): Generator<NewContent> {
  const r = rng(o.seed)
  const now = Date.now()
  const YEAR = 365 * 24 * 3_600_000
  for (let i = 0; i < o.count; i++) {
    const group = r.pick(tax.groups)
    const status = o.statuses[i % o.statuses.length]!
    const t = title(r)
    const created = new Date(now - r.int(YEAR)).toISOString()
    const tagCount = 1 + r.int(3)
    const tagSlugs = [...new Set(Array.from({ length: tagCount }, () => r.pick(tax.tags)))]
    yield {
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
    }
  }
}

function* inBatches<T>(items: Iterable<T>, size: number): Generator<T[]> {
  let batch: T[] = []
  for (const item of items) {
    batch.push(item)
    if (batch.length === size) {
      yield batch
      batch = []
    }
  }
  if (batch.length) yield batch
}

async function anyAdminId(payload: Payload): Promise<Id | null> {
  const res = await payload.find({ collection: 'users', limit: 1, depth: 0, overrideAccess: true, sort: 'createdAt' })
  return res.docs[0] ? String(res.docs[0].id) : null
}

/** The demo deployment: taxonomy, members and every curated resource (src/seed/demoResources.ts). */
export async function seedDemo(payload: Payload): Promise<{ content: number }> {
  const tax = await seedDemoTaxonomy(payload)
  const members = await seedDemoMembers(payload)
  // Slugs from titles on an empty database; a repeated demo seed must not collide.
  const suffix = (await engine().contentStore(payload).countContent()) === 0 ? '' : `-${Date.now().toString(36)}`
  const now = Date.now()
  const HOUR = 3_600_000
  const slugs = new Set<string>()
  const items: NewContent[] = demoResources().map((d) => {
    const group = tax.groups.find((g) => g.slug === d.group)!
    let slug = `${suggestSlug(d.title).slice(0, 70).replace(/-+$/, '')}${suffix}`
    for (let n = 2; slugs.has(slug); n++) slug = `${slug.replace(/-\d+$/, '')}-${n}`
    slugs.add(slug)
    const created = now - d.ageDays * 24 * HOUR
    const moderated = new Date(Math.min(now, created + d.approvedAfterHours * HOUR)).toISOString()
    return {
      slug,
      title: d.title,
      description: d.description,
      url: d.url,
      tagSlugs: d.tags,
      groupId: group.id,
      channelId: group.channelBySlug.get(d.channel)!,
      platformId: tax.platformBySlug.get(d.platform)!,
      status: d.status,
      isActive: true,
      submittedBy: members[d.submitter]!,
      approvedAt: d.status === 'approved' ? moderated : null,
      rejectionReason: d.rejectionReason,
      createdAt: new Date(created).toISOString(),
      updatedAt: d.status === 'pending' ? new Date(created).toISOString() : moderated,
    }
  })
  await engine().contentStore(payload).insertContent(items)
  await recordDemoDecisions(payload, items)
  return { content: items.length }
}

/**
 * The audit trail a real deployment would have for the demo's decisions (the dashboard's chart
 * and the audit log read it): one approve or reject event per decided item, by the first admin.
 */
async function recordDemoDecisions(payload: Payload, items: NewContent[]): Promise<void> {
  const decided = items.filter((i) => i.status !== 'pending')
  const found = await payload.find({
    collection: 'content',
    where: { slug: { in: decided.map((i) => i.slug) } },
    pagination: false,
    depth: 0,
    select: { slug: true },
    overrideAccess: true,
  })
  const idBySlug = new Map(found.docs.map((d) => [String(d.slug), String(d.id)]))
  const actor = await anyAdminId(payload)
  for (const item of decided) {
    const approved = item.status === 'approved'
    await payloadWrite(() => payload.create({
      collection: 'moderation-events',
      data: {
        actor,
        action: approved ? 'approve' : 'reject',
        targetCollection: 'content',
        targetId: idBySlug.get(item.slug)!,
        targetSlug: item.slug,
        stateBefore: 'pending',
        stateAfter: item.status,
        reason: item.rejectionReason,
        at: approved ? item.approvedAt! : item.updatedAt,
      },
      overrideAccess: true,
      depth: 0,
    }))
  }
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

/** The benchmark generator, separate from the demo: N approved items over the demo taxonomy (created if missing) and the given tag pool. */
export async function seedContent(
  payload: Payload,
  count: number,
  opts: { tags?: string[]; seed?: number; progress?: BulkProgress } = {},
): Promise<number> {
  const tax = await seedDemoTaxonomy(payload)
  const seed = opts.seed ?? Date.now() % 1_000_000
  const items = itemStream(
    { ...tax, tags: opts.tags?.length ? opts.tags : tax.tags },
    { count, statuses: ['approved'], seed, submittedBy: await anyAdminId(payload), slugPrefix: `b${seed.toString(36)}` },
  )
  const active = (function* () {
    for (const item of items) yield { ...item, isActive: true }
  })()
  return engine().contentStore(payload).bulkLoadContent(inBatches(active, 5000), opts.progress)
}
