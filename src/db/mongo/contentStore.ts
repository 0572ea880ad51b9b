/**
 * The MongoDB content store: native driver queries on Payload's collections (through the
 * adapter's models, so collection names follow Payload), with projections; a text index
 * over title + description scores q. Relationship fields hold ObjectIds, dates are Dates.
 */
import type { Payload } from 'payload'

import { cachedCount } from '../countCache'
import type { ContentListQuery, ContentRecord, ContentStore, NewContent, NewTag, TagRecord } from '../contentTypes'

type Doc = Record<string, any>
type NativeCollection = {
  find(filter: Doc, options?: Doc): { sort(s: Doc): any; skip(n: number): any; limit(n: number): any; toArray(): Promise<Doc[]> }
  findOne(filter: Doc, options?: Doc): Promise<Doc | null>
  countDocuments(filter: Doc): Promise<number>
  estimatedDocumentCount(): Promise<number>
  aggregate(pipeline: Doc[]): { toArray(): Promise<Doc[]> }
  createIndexes(specs: Doc[]): Promise<unknown>
  insertMany(docs: Doc[], options?: Doc): Promise<unknown>
}

const PROJECTION = {
  slug: 1, title: 1, description: 1, url: 1, tagSlugs: 1, group: 1, channel: 1, platform: 1, status: 1,
  isActive: 1, submittedBy: 1, approvedAt: 1, rejectionReason: 1, createdAt: 1, updatedAt: 1, thumbnailUrl: 1,
}

const str = (v: unknown): string | null => (v == null ? null : typeof v === 'object' && 'toHexString' in (v as object) ? (v as any).toHexString() : String(v))
const iso = (v: unknown): string | null => (v == null ? null : v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString())
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

function toRecord(d: Doc): ContentRecord {
  return {
    id: str(d._id)!,
    slug: d.slug,
    title: d.title,
    description: d.description ?? null,
    url: d.url,
    tagSlugs: Array.isArray(d.tagSlugs) ? d.tagSlugs.filter((t: unknown) => typeof t === 'string') : [],
    groupId: str(d.group),
    channelId: str(d.channel),
    platformId: str(d.platform),
    status: d.status,
    isActive: d.isActive !== false,
    submittedBy: str(d.submittedBy),
    approvedAt: iso(d.approvedAt),
    rejectionReason: d.rejectionReason ?? null,
    thumbnailUrl: d.thumbnailUrl ?? null,
    createdAt: iso(d.createdAt)!,
    updatedAt: iso(d.updatedAt)!,
  }
}

function toTag(d: Doc): TagRecord {
  return {
    id: str(d._id)!,
    slug: d.slug,
    label: d.label,
    facetId: str(d.facet),
    createdAt: iso(d.createdAt)!,
    updatedAt: iso(d.updatedAt)!,
  }
}

export function mongoContentStore(payload: Payload): ContentStore {
  const adapter = payload.db as unknown as { collections: Record<string, { collection: NativeCollection }>; mongoose: any }
  const coll = (slug: string) => adapter.collections[slug]!.collection
  const oid = (hex: string) => new adapter.mongoose.Types.ObjectId(hex)
  const oids = (ids: string[]) => ids.filter((id) => /^[0-9a-f]{24}$/i.test(id)).map(oid)

  function filterOf(q: ContentListQuery): Doc {
    const f: Doc = {}
    const and: Doc[] = []
    if (q.text && q.text.terms.length > 0) f.$text = { $search: q.text.terms.join(' ') }
    for (const t of q.text?.shortTerms ?? []) and.push({ title: { $regex: escapeRegex(t), $options: 'i' } })
    if (q.statuses !== 'all') f.status = { $in: q.statuses }
    if (!q.includeInactive) f.isActive = true
    if (q.approvedSince) f.approvedAt = { $gte: new Date(q.approvedSince) }
    if (q.groupIds) f.group = { $in: oids(q.groupIds) }
    if (q.channelIds) f.channel = { $in: oids(q.channelIds) }
    if (q.platformIds) f.platform = { $in: oids(q.platformIds) }
    if (q.tags) f.tagSlugs = { $in: q.tags }
    if (and.length) f.$and = and
    return f
  }

  const SORTS: Record<ContentListQuery['sort'], Doc> = {
    newest: { approvedAt: -1, _id: -1 },
    oldest: { approvedAt: 1, _id: 1 },
    alpha: { title: 1, _id: 1 },
    relevance: { score: { $meta: 'textScore' }, approvedAt: -1, _id: -1 },
  }

  const isDefaultListing = (q: ContentListQuery) =>
    !q.text && !q.tags && !q.groupIds && !q.channelIds && !q.platformIds && !q.approvedSince

  const contentVersion = async () => {
    const [n, last] = await Promise.all([
      coll('content').estimatedDocumentCount(),
      coll('content').findOne({}, { sort: { updatedAt: -1 }, projection: { updatedAt: 1 } }),
    ])
    return `${n}|${iso(last?.updatedAt) ?? ''}`
  }

  return {
    async prepare() {
      await coll('content').createIndexes([
        { key: { title: 'text', description: 'text' }, name: 'raw_content_text', weights: { title: 3, description: 1 } },
        { key: { status: 1, isActive: 1, approvedAt: -1, _id: -1 }, name: 'raw_content_list' },
        { key: { status: 1, isActive: 1, title: 1, _id: 1 }, name: 'raw_content_alpha' },
        { key: { tagSlugs: 1, approvedAt: -1 }, name: 'raw_content_tags' },
        { key: { group: 1, approvedAt: -1, _id: -1 }, name: 'raw_content_group_list' },
        { key: { channel: 1, approvedAt: -1, _id: -1 }, name: 'raw_content_channel_list' },
        { key: { platform: 1, approvedAt: -1, _id: -1 }, name: 'raw_content_platform_list' },
      ])
    },

    async listContent(q) {
      const filter = filterOf(q)
      const ranked = !!filter.$text
      const sort = SORTS[q.sort === 'relevance' && !ranked ? 'newest' : q.sort]
      const projection = ranked ? { ...PROJECTION, score: { $meta: 'textScore' } } : PROJECTION
      const rows =
        q.limit > 0
          ? (await coll('content').find(filter, { projection }).sort(sort).skip(q.offset).limit(q.limit).toArray()).map(toRecord)
          : []
      if (q.limit > 0 && rows.length < q.limit && (rows.length > 0 || q.offset === 0)) {
        return { rows, total: q.offset + rows.length, estimated: false }
      }
      if (q.estimate && isDefaultListing(q)) {
        // Collection metadata: approximate (includes pending/rejected/inactive), O(1).
        return { rows, total: await coll('content').estimatedDocumentCount(), estimated: true }
      }
      const key = JSON.stringify(filter)
      const total = await cachedCount(await contentVersion(), key, () => coll('content').countDocuments(filter))
      return { rows, total, estimated: false }
    },

    async contentBySlug(slug) {
      const d = await coll('content').findOne({ slug }, { projection: PROJECTION })
      return d ? toRecord(d) : null
    },

    async relatedContent(item, limit) {
      const channel = item.channelId && /^[0-9a-f]{24}$/i.test(item.channelId) ? oid(item.channelId) : null
      const or: Doc[] = [{ tagSlugs: { $in: item.tagSlugs } }]
      if (channel) or.push({ channel })
      const docs = await coll('content')
        .aggregate([
          { $match: { status: 'approved', isActive: true, _id: { $ne: oid(item.id) }, $or: or } },
          {
            $addFields: {
              score: {
                $add: [
                  { $cond: [{ $and: [channel != null, { $eq: ['$channel', channel] }] }, 2, 0] },
                  { $size: { $setIntersection: [{ $ifNull: ['$tagSlugs', []] }, item.tagSlugs] } },
                ],
              },
            },
          },
          { $sort: { score: -1, approvedAt: -1, _id: -1 } },
          { $limit: limit },
          { $project: PROJECTION },
        ])
        .toArray()
      return docs.map(toRecord)
    },

    async countContent() {
      return coll('content').countDocuments({})
    },

    async listTags(q) {
      const f: Doc = {}
      if (q.facetIds) f.facet = { $in: oids(q.facetIds) }
      if (q.prefix) {
        const re = { $regex: `^${escapeRegex(q.prefix)}`, $options: 'i' }
        f.$or = [{ slug: re }, { label: re }]
      }
      const [docs, total] = await Promise.all([
        coll('tags').find(f).sort({ label: 1, slug: 1 }).skip(q.offset).limit(q.limit).toArray(),
        coll('tags').countDocuments(f),
      ])
      return { rows: docs.map(toTag), total }
    },

    async tagBySlug(slug) {
      const d = await coll('tags').findOne({ slug })
      return d ? toTag(d) : null
    },

    async tagUsage(slugs) {
      const out = new Map<string, number>(slugs.map((s) => [s, 0]))
      if (slugs.length === 0) return out
      const rows = await coll('content')
        .aggregate([
          { $match: { tagSlugs: { $in: slugs }, status: 'approved', isActive: true } },
          { $unwind: '$tagSlugs' },
          { $match: { tagSlugs: { $in: slugs } } },
          { $group: { _id: '$tagSlugs', n: { $sum: 1 } } },
        ])
        .toArray()
      for (const r of rows) out.set(r._id, r.n)
      return out
    },

    async taxonomyVersion() {
      const parts = await Promise.all(
        ['surfaces', 'groups', 'channels', 'platforms', 'tags', 'facets'].map(async (slug) => {
          const [n, last] = await Promise.all([
            coll(slug).estimatedDocumentCount(),
            coll(slug).findOne({}, { sort: { updatedAt: -1 }, projection: { updatedAt: 1 } }),
          ])
          return `${n}:${iso(last?.updatedAt) ?? ''}`
        }),
      )
      return parts.join('|')
    },

    async insertContent(rows: NewContent[]) {
      const CHUNK = 5000
      for (let i = 0; i < rows.length; i += CHUNK) {
        await coll('content').insertMany(
          rows.slice(i, i + CHUNK).map((r) => ({
            ...(r.id ? { _id: oid(r.id) } : {}),
            slug: r.slug,
            title: r.title,
            description: r.description,
            url: r.url,
            tagSlugs: r.tagSlugs,
            group: r.groupId ? oid(r.groupId) : null,
            channel: r.channelId ? oid(r.channelId) : null,
            platform: r.platformId ? oid(r.platformId) : null,
            status: r.status,
            isActive: r.isActive,
            submittedBy: r.submittedBy ? oid(r.submittedBy) : null,
            approvedAt: r.approvedAt ? new Date(r.approvedAt) : null,
            rejectionReason: r.rejectionReason,
            createdAt: new Date(r.createdAt),
            updatedAt: new Date(r.updatedAt),
          })),
          { ordered: false },
        )
      }
    },

    async insertTags(rows: NewTag[]) {
      if (rows.length === 0) return
      await coll('tags').insertMany(
        rows.map((r) => ({
          ...(r.id ? { _id: oid(r.id) } : {}),
          slug: r.slug,
          label: r.label,
          facet: oid(r.facetId),
          createdAt: new Date(r.createdAt),
          updatedAt: new Date(r.updatedAt),
        })),
        { ordered: false },
      )
    },
  }
}
