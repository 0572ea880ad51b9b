/**
 * Content rows on SQLite, derived from the one definition of the record (../contentRecord): the
 * column list every read selects, a row's decoding, and the one INSERT both the store's inserts
 * and the bulk load run.
 */
import { CONTENT_FIELD_NAMES, CONTENT_FIELDS, type FieldKind, INSERTED_FIELD_NAMES } from '../contentRecord'
import type { ContentRecord, NewContent } from '../contentTypes'
import { urlKeyOf } from '../../platform/urlNormalize'

/** A row as the driver returns it in raw mode: the columns in CONTENT_COLUMNS' order. */
export type Row = unknown[]

/** `c.id, c.slug, …`: every read's column list, in the record's field order. */
export const CONTENT_COLUMNS = CONTENT_FIELD_NAMES.map((name) => `c.${CONTENT_FIELDS[name].sqlite}`).join(', ')

function parseList(raw: unknown): string[] {
  if (typeof raw !== 'string') return []
  try {
    const v: unknown = JSON.parse(raw)
    return Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : []
  } catch {
    return []
  }
}

const orNull = (v: unknown) => v ?? null

const DECODE: Record<FieldKind, (v: unknown) => unknown> = {
  id: (v) => v,
  text: (v) => v,
  optionalText: orNull,
  status: (v) => v,
  list: parseList,
  ref: orNull,
  flag: (v) => Number(v) === 1,
  instant: (v) => v,
  optionalInstant: orNull,
}

const ENCODE: Record<FieldKind, (v: unknown) => unknown> = {
  id: (v) => v,
  text: (v) => v,
  optionalText: orNull,
  status: (v) => v,
  list: (v) => JSON.stringify(v ?? []),
  ref: orNull,
  flag: (v) => (v ? 1 : 0),
  instant: (v) => v,
  optionalInstant: orNull,
}

const DECODERS = CONTENT_FIELD_NAMES.map((name) => DECODE[CONTENT_FIELDS[name].kind])

/** One row (CONTENT_COLUMNS' order) as the engine-neutral record. */
export function toRecord(r: Row): ContentRecord {
  const record: Record<string, unknown> = {}
  for (let i = 0; i < DECODERS.length; i++) record[CONTENT_FIELD_NAMES[i]!] = DECODERS[i]!(r[i])
  return record as ContentRecord
}

/** The URL key's parameter number: after every inserted field. */
const URL_KEY_PARAM = INSERTED_FIELD_NAMES.length + 1

/**
 * The one INSERT of a content row: the inserted fields, the normalised URL's key, and the next free
 * ordinal of that key (copies of a URL already present are numbered after it, as the backfill
 * numbers legacy ones).
 */
export function contentInsertSql(table: string): string {
  const columns = [...INSERTED_FIELD_NAMES.map((name) => CONTENT_FIELDS[name].sqlite), 'url_key', 'url_key_ordinal']
  const values = INSERTED_FIELD_NAMES.map(() => '?')
  return `INSERT INTO ${table} (${columns.join(', ')})
    VALUES (${values.join(', ')}, ?${URL_KEY_PARAM}, (SELECT coalesce(max(url_key_ordinal) + 1, 0) FROM ${table} WHERE url_key = ?${URL_KEY_PARAM}))`
}

/** contentInsertSql's arguments for one new row stored under `id`. */
export function contentInsertArgs(r: NewContent, id: string): unknown[] {
  const args = INSERTED_FIELD_NAMES.map((name) => (name === 'id' ? id : ENCODE[CONTENT_FIELDS[name].kind](r[name as keyof NewContent])))
  args.push(urlKeyOf(r.url))
  return args
}
