/**
 * The content record, defined once: each field of ContentRecord with its kind, the column
 * Payload's SQLite schema gives it, the field Payload's MongoDB documents give it, and whether a
 * new row is written with it. Every engine mapping is derived from this table: SQLite's column
 * list, row decoding and its one INSERT (./sqlite/contentRows.ts), MongoDB's projection, document
 * decoding and new documents (./mongo/documents.ts), and which writes move the public lists
 * (./versionDomains' CONTENT_SHAPE_FIELDS). `satisfies` makes a field of ContentRecord
 * missing here a compile error; test/db/contentRecord.test.ts holds the table to
 * collections/Content.ts (every Payload field is here or named as left out, with why) and to the
 * columns a real SQLite database has.
 */
import type { ContentRecord } from './contentTypes'

/**
 * How a field is stored and read: `id` (the row's id), `text`, `optionalText` (null when absent),
 * `list` (strings: a JSON array column, an array field), `ref` (a relationship's id or null),
 * `flag` (true unless stored false), `instant` (ISO text on SQLite, a Date on MongoDB),
 * `optionalInstant` (the same, or null).
 */
export type FieldKind = 'id' | 'text' | 'optionalText' | 'list' | 'ref' | 'flag' | 'instant' | 'optionalInstant'

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
}

export const CONTENT_FIELDS = {
  id: { kind: 'id', sqlite: 'id', mongo: '_id', inserted: true, shape: false },
  slug: { kind: 'text', sqlite: 'slug', mongo: 'slug', inserted: true, shape: false },
  title: { kind: 'text', sqlite: 'title', mongo: 'title', inserted: true, shape: true },
  description: { kind: 'optionalText', sqlite: 'description', mongo: 'description', inserted: true, shape: true },
  url: { kind: 'text', sqlite: 'url', mongo: 'url', inserted: true, shape: false },
  tagSlugs: { kind: 'list', sqlite: 'tag_slugs', mongo: 'tagSlugs', inserted: true, shape: true },
  groupId: { kind: 'ref', sqlite: 'group_id', mongo: 'group', inserted: true, shape: true },
  channelId: { kind: 'ref', sqlite: 'channel_id', mongo: 'channel', inserted: true, shape: true },
  platformId: { kind: 'ref', sqlite: 'platform_id', mongo: 'platform', inserted: true, shape: true },
  status: { kind: 'text', sqlite: 'status', mongo: 'status', inserted: true, shape: true },
  isActive: { kind: 'flag', sqlite: 'is_active', mongo: 'isActive', inserted: true, shape: true },
  submittedBy: { kind: 'ref', sqlite: 'submitted_by_id', mongo: 'submittedBy', inserted: true, shape: true },
  approvedAt: { kind: 'optionalInstant', sqlite: 'approved_at', mongo: 'approvedAt', inserted: true, shape: true },
  rejectionReason: { kind: 'optionalText', sqlite: 'rejection_reason', mongo: 'rejectionReason', inserted: true, shape: false },
  createdAt: { kind: 'instant', sqlite: 'created_at', mongo: 'createdAt', inserted: true, shape: true },
  updatedAt: { kind: 'instant', sqlite: 'updated_at', mongo: 'updatedAt', inserted: true, shape: false },
  // Derived from the `thumbnail` upload by the collection's hook on every write.
  thumbnailUrl: { kind: 'optionalText', sqlite: 'thumbnail_url', mongo: 'thumbnailUrl', inserted: false, shape: false },
} as const satisfies Record<keyof ContentRecord, ContentField>

export type ContentFieldName = keyof typeof CONTENT_FIELDS

/** The record's fields in one fixed order (the SQLite column list's, the decoders'). */
export const CONTENT_FIELD_NAMES = Object.keys(CONTENT_FIELDS) as ContentFieldName[]

/** The fields a new row is written with, in order. */
export const INSERTED_FIELD_NAMES = CONTENT_FIELD_NAMES.filter((name) => CONTENT_FIELDS[name].inserted)
