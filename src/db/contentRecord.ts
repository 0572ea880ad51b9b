/**
 * The content record, defined once: each field with its kind, the column Payload's SQLite schema
 * gives it, the field Payload's MongoDB documents give it, whether a new row is written with it,
 * whether lists read it, how the API answers it, and whether GET /content filters by it. Every
 * other shape is derived from this table: the record's type (ContentRecord, NewContent), SQLite's
 * column list, row decoding and its one INSERT (./sqlite/contentRows.ts), MongoDB's projection,
 * document decoding and new documents (./mongo/documents.ts), which writes move the public lists
 * (./versionDomains' CONTENT_SHAPE_FIELDS), the answer's schema (src/services/dtos.ts' ContentDto)
 * and mapping (src/services/content.ts' toContentDto), and the list's value filters (`?name=a,b` on GET /content,
 * applied by both engines' filter builders). test/db/contentRecord.test.ts holds the table to
 * collections/Content.ts (every Payload field is here or named as left out, with why) and to the
 * columns a real SQLite database has.
 */

export const CONTENT_STATUSES = ['pending', 'approved', 'rejected'] as const
export type ContentStatus = (typeof CONTENT_STATUSES)[number]

/**
 * How a field is stored and read: `id` (the row's id), `text`, `optionalText` (null when absent),
 * `status` (text, one of CONTENT_STATUSES), `list` (strings: a JSON array column, an array
 * field), `ref` (a relationship's id or null), `flag` (true unless stored false), `instant` (ISO
 * text on SQLite, a Date on MongoDB), `optionalInstant` (the same, or null).
 */
export type FieldKind = 'id' | 'text' | 'optionalText' | 'status' | 'list' | 'ref' | 'flag' | 'instant' | 'optionalInstant'

/** The record's value of each kind (relationships are ids; instants ISO 8601 text). */
export type KindValue = {
  id: string
  text: string
  optionalText: string | null
  status: ContentStatus
  list: string[]
  ref: string | null
  flag: boolean
  instant: string
  optionalInstant: string | null
}

/** Kinds a new row may leave out: stored as null. */
const NULLABLE_KINDS = ['optionalText', 'ref', 'optionalInstant'] as const satisfies readonly FieldKind[]
type NullableKind = (typeof NULLABLE_KINDS)[number]

export type ContentField = {
  kind: FieldKind
  /** The column in Payload's SQLite table. */
  sqlite: string
  /** The field in Payload's MongoDB document (Payload's field name). */
  mongo: string
  /** Written by the service's inserts (a derived field, set by the collection's hooks, is not). */
  inserted: boolean
  /**
   * Lists filter, sort or rank by it: a write that changes it moves the public lists' generation;
   * one that changes only other fields marks its row (../versionDomains).
   */
  shape: boolean
  /**
   * How ContentDto carries it: `same` (the value as stored, under its name), `slug` (a
   * relationship answered as its slug, under the name given, e.g. groupId as `group`), or
   * `own` (the service maps it: visible tags, a served URL).
   */
  dto: 'same' | 'own' | { slug: string }
  /**
   * A value filter of GET /content: `?<name>=a,b` keeps rows whose value is one of them (text
   * kinds only; a filter moves which rows a list holds, so the field is `shape` too).
   */
  filter?: { description: string }
}

export const CONTENT_FIELDS = {
  id: { kind: 'id', sqlite: 'id', mongo: '_id', inserted: true, shape: false, dto: 'same' },
  slug: { kind: 'text', sqlite: 'slug', mongo: 'slug', inserted: true, shape: false, dto: 'same' },
  title: { kind: 'text', sqlite: 'title', mongo: 'title', inserted: true, shape: true, dto: 'same' },
  description: { kind: 'optionalText', sqlite: 'description', mongo: 'description', inserted: true, shape: true, dto: 'same' },
  url: { kind: 'text', sqlite: 'url', mongo: 'url', inserted: true, shape: false, dto: 'same' },
  // Answered without the slugs a tag rename in steps hides.
  tagSlugs: { kind: 'list', sqlite: 'tag_slugs', mongo: 'tagSlugs', inserted: true, shape: true, dto: 'own' },
  groupId: { kind: 'ref', sqlite: 'group_id', mongo: 'group', inserted: true, shape: true, dto: { slug: 'group' } },
  channelId: { kind: 'ref', sqlite: 'channel_id', mongo: 'channel', inserted: true, shape: true, dto: { slug: 'channel' } },
  platformId: { kind: 'ref', sqlite: 'platform_id', mongo: 'platform', inserted: true, shape: true, dto: { slug: 'platform' } },
  status: { kind: 'status', sqlite: 'status', mongo: 'status', inserted: true, shape: true, dto: 'same' },
  isActive: { kind: 'flag', sqlite: 'is_active', mongo: 'isActive', inserted: true, shape: true, dto: 'same' },
  submittedBy: { kind: 'ref', sqlite: 'submitted_by_id', mongo: 'submittedBy', inserted: true, shape: true, dto: 'same' },
  approvedAt: { kind: 'optionalInstant', sqlite: 'approved_at', mongo: 'approvedAt', inserted: true, shape: true, dto: 'same' },
  rejectionReason: { kind: 'optionalText', sqlite: 'rejection_reason', mongo: 'rejectionReason', inserted: true, shape: false, dto: 'same' },
  createdAt: { kind: 'instant', sqlite: 'created_at', mongo: 'createdAt', inserted: true, shape: true, dto: 'same' },
  updatedAt: { kind: 'instant', sqlite: 'updated_at', mongo: 'updatedAt', inserted: true, shape: false, dto: 'same' },
  // Derived from the `thumbnail` upload by the collection's hook on every write; answered as a served URL.
  thumbnailUrl: { kind: 'optionalText', sqlite: 'thumbnail_url', mongo: 'thumbnailUrl', inserted: false, shape: false, dto: 'own' },
} as const satisfies Record<string, ContentField>

export type ContentFields = typeof CONTENT_FIELDS
type Fields = ContentFields
export type ContentFieldName = keyof Fields

/** One content row as stored; relationships are ids, resolved to slugs by the service. */
export type ContentRecord = { -readonly [N in ContentFieldName]: KindValue[Fields[N]['kind']] }

type Inserted = { [N in ContentFieldName]: Fields[N]['inserted'] extends true ? N : never }[ContentFieldName]
type Optional = { [N in Inserted]: N extends 'id' ? N : Fields[N]['kind'] extends NullableKind ? N : never }[Inserted]

/**
 * A row for insertion (seeding, benchmarks, the service's inserts): the inserted fields, those
 * that may be null left out at will (stored as null); ids are generated when absent.
 */
export type NewContent = { [N in Exclude<Inserted, Optional>]: ContentRecord[N] } & { [N in Optional]?: ContentRecord[N] }

/** The fields GET /content filters by value (`?<name>=a,b`). */
export type ValueFilterName = { [N in ContentFieldName]: Fields[N] extends { filter: object } ? N : never }[ContentFieldName]
/** Value filters: each field's accepted values (OR within one, AND across); never empty. */
export type ValueFilters = { [N in ValueFilterName]?: string[] }

/** The record's fields in one fixed order (the SQLite column list's, the decoders'). */
export const CONTENT_FIELD_NAMES = Object.keys(CONTENT_FIELDS) as ContentFieldName[]

/** The fields a new row is written with, in order. */
export const INSERTED_FIELD_NAMES = CONTENT_FIELD_NAMES.filter((name) => CONTENT_FIELDS[name].inserted)

/** A query's value filters, each field's definition with the values it accepts (each engine's filter builder applies them). */
export const valueFilters = (q: { values?: ValueFilters }): [ContentField, string[]][] =>
  Object.entries(q.values ?? {}).flatMap(([name, values]) =>
    Array.isArray(values) && values.length > 0 ? [[CONTENT_FIELDS[name as ContentFieldName] as ContentField, values]] : [],
  )

/** The value filters' fields, with their descriptions (the query parameter's). */
export const VALUE_FILTERS = CONTENT_FIELD_NAMES.flatMap((name) => {
  const field: ContentField = CONTENT_FIELDS[name]
  return field.filter ? [{ name: name as ValueFilterName, field, description: field.filter.description }] : []
})
