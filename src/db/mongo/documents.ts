/** The shapes of Payload's MongoDB documents the raw paths read and write (relationships are ObjectIds, dates are Dates). */
import type { ObjectId } from 'mongodb'

import { CONTENT_FIELD_NAMES, CONTENT_FIELDS, type ContentFieldName, type FieldKind, INSERTED_FIELD_NAMES } from '../contentRecord'
import type { ContentRecord, NewContent, NewTag, TagRecord } from '../contentTypes'

/** A stored value of each field kind (../contentRecord), as Payload's MongoDB documents hold it. */
type StoredValue = {
  id: ObjectId
  text: string
  optionalText: string | null
  status: string
  list: unknown
  ref: ObjectId | null
  flag: boolean
  instant: Date
  optionalInstant: Date | null
}

type Fields = typeof CONTENT_FIELDS

/** A content document: the record's fields under Payload's names (derived from ../contentRecord), and the URL key. */
export type ContentDoc = { [N in ContentFieldName as Fields[N]['mongo']]: StoredValue[Fields[N]['kind']] } & {
  /** The normalised URL (src/platform/urlNormalize.ts); unique with urlKeyOrdinal (0 for every new item). */
  urlKey?: string | null
  urlKeyOrdinal?: number | null
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

const DECODE: { [K in FieldKind]: (v: StoredValue[K] | undefined) => unknown } = {
  id: (v) => v!.toHexString(),
  text: (v) => v,
  optionalText: (v) => v ?? null,
  status: (v) => v,
  list: (v) => (Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : []),
  ref: (v) => hex(v),
  flag: (v) => v !== false,
  instant: (v) => v!.toISOString(),
  optionalInstant: (v) => iso(v),
}

/** A stored document as the engine-neutral record (every field of ../contentRecord). */
export function toContentRecord(d: ContentDoc): ContentRecord {
  const record: Record<string, unknown> = {}
  const doc = d as unknown as Record<string, never>
  for (const name of CONTENT_FIELD_NAMES) {
    const field = CONTENT_FIELDS[name]
    record[name] = (DECODE[field.kind] as (v: unknown) => unknown)(doc[field.mongo])
  }
  return record as ContentRecord
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

/** How a new document stores each kind; ids come from the caller's (a new one, or the given hex). */
type Ids = { newId: () => ObjectId; oid: (hex: string) => ObjectId }
const ENCODE: { [K in FieldKind]: (v: unknown, ids: Ids) => StoredValue[K] } = {
  id: (v, ids) => (typeof v === 'string' && v ? ids.oid(v) : ids.newId()),
  text: (v) => v as string,
  optionalText: (v) => (v as string | null | undefined) ?? null,
  status: (v) => v as string,
  list: (v) => v,
  ref: (v, ids) => (typeof v === 'string' && v ? ids.oid(v) : null),
  flag: (v) => Boolean(v),
  instant: (v) => new Date(v as string),
  optionalInstant: (v) => (v ? new Date(v as string) : null),
}

/** A bulk-inserted content document (ids generated when absent): the inserted fields of ../contentRecord, and the URL key. */
export function contentDocOf(
  r: NewContent,
  newId: () => ObjectId,
  oid: (hex: string) => ObjectId,
  urlKey: { key: string; ordinal: number },
): ContentDoc {
  const ids = { newId, oid }
  const doc: Record<string, unknown> = { urlKey: urlKey.key, urlKeyOrdinal: urlKey.ordinal }
  for (const name of INSERTED_FIELD_NAMES) {
    const field = CONTENT_FIELDS[name]
    doc[field.mongo] = ENCODE[field.kind]((r as Record<string, unknown>)[name], ids)
  }
  return doc as ContentDoc
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
