/** The shapes of Payload's MongoDB documents the raw paths read and write (relationships are ObjectIds, dates are Dates). */
import type { ObjectId } from 'mongodb'

import type { ContentRecord, ContentStatus, NewContent, NewTag, TagRecord } from '../contentTypes'

export type ContentDoc = {
  _id: ObjectId
  slug: string
  title: string
  description?: string | null
  url: string
  tagSlugs?: unknown
  group?: ObjectId | null
  channel?: ObjectId | null
  platform?: ObjectId | null
  status: ContentStatus
  isActive?: boolean
  submittedBy?: ObjectId | null
  approvedAt?: Date | null
  rejectionReason?: string | null
  thumbnailUrl?: string | null
  /** The normalised URL (src/urlNormalize.ts); unique with urlKeyOrdinal (0 for every new item). */
  urlKey?: string | null
  urlKeyOrdinal?: number | null
  createdAt: Date
  updatedAt: Date
}

export type TagDoc = {
  _id: ObjectId
  slug: string
  label: string
  facet?: ObjectId | null
  createdAt: Date
  updatedAt: Date
}

/** Collections whose documents only count (taxonomy versions, seed checks). */
type AnyDoc = { _id: ObjectId }

const hex = (v: ObjectId | null | undefined): string | null => (v == null ? null : v.toHexString())
const iso = (v: Date | null | undefined): string | null => (v == null ? null : v.toISOString())

export function toContentRecord(d: ContentDoc): ContentRecord {
  return {
    id: d._id.toHexString(),
    slug: d.slug,
    title: d.title,
    description: d.description ?? null,
    url: d.url,
    tagSlugs: Array.isArray(d.tagSlugs) ? d.tagSlugs.filter((t): t is string => typeof t === 'string') : [],
    groupId: hex(d.group),
    channelId: hex(d.channel),
    platformId: hex(d.platform),
    status: d.status,
    isActive: d.isActive !== false,
    submittedBy: hex(d.submittedBy),
    approvedAt: iso(d.approvedAt),
    rejectionReason: d.rejectionReason ?? null,
    thumbnailUrl: d.thumbnailUrl ?? null,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  }
}

export function toTagRecord(d: TagDoc): TagRecord {
  return {
    id: d._id.toHexString(),
    slug: d.slug,
    label: d.label,
    facetId: hex(d.facet),
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  }
}

/** A bulk-inserted content document (ids generated when absent). */
export function contentDocOf(
  r: NewContent,
  newId: () => ObjectId,
  oid: (hex: string) => ObjectId,
  urlKey: { key: string; ordinal: number },
): ContentDoc {
  return {
    _id: r.id ? oid(r.id) : newId(),
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
    urlKey: urlKey.key,
    urlKeyOrdinal: urlKey.ordinal,
    createdAt: new Date(r.createdAt),
    updatedAt: new Date(r.updatedAt),
  }
}

export function tagDocOf(r: NewTag, newId: () => ObjectId, oid: (hex: string) => ObjectId): TagDoc {
  return {
    _id: r.id ? oid(r.id) : newId(),
    slug: r.slug,
    label: r.label,
    facet: oid(r.facetId),
    createdAt: new Date(r.createdAt),
    updatedAt: new Date(r.updatedAt),
  }
}
