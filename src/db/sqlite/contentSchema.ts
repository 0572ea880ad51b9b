/**
 * Raw SQLite objects beside Payload's tables (named raw_*): list indexes, the tag side table
 * and the FTS5 text index, both kept in sync by triggers so every write path (Payload, admin
 * panel, bulk seed) maintains them, and the change counters behind the content, taxonomy and
 * branding versions. Migrations create them (src/db/sqlite/migrations); start-up checks that
 * every one the store relies on is there, and repairs what only data can get wrong: a text
 * index that drifted from the content table is rebuilt, and the planner's statistics are
 * gathered once.
 */
import { FTS_TOKENCHARS, TEXT_WEIGHTS } from '../searchTerms'
import { type Domain, DOMAINS, REFERENCED_COLLECTIONS, VERSIONED_COLLECTIONS } from '../freshness'
import { TABLES, tableOf } from './tables'

const CONTENT = TABLES.content

/**
 * The text index over title and description of public rows (approved, active): the public
 * ranking's statistics are its own (./textRanking reads its parts). Every other row is in
 * HIDDEN_FTS_TABLE, where moderators' searches find it; triggers keep each row in its index.
 */
export const FTS_TABLE = 'raw_content_fts'
export const HIDDEN_FTS_TABLE = 'raw_content_fts_hidden'
/** A row the public sees, as SQL on `c` (the content table). */
export const PUBLIC_ROW = "c.status = 'approved' AND c.is_active = 1"
/** Its columns, in order: each row's docsize record holds one length per column. */
export const FTS_COLUMNS = ['title', 'description'] as const
/**
 * Stemmed, without accents or case, and `_` inside a word as MongoDB's text index keeps it
 * (../searchTerms). A migration makes the index with these settings (20261125_071500_search_meaning).
 */
export const FTS_TOKENIZE = `"porter unicode61 remove_diacritics 2 tokenchars '${FTS_TOKENCHARS}'"`
/** Each column's weight in bm25, in column order (a title match counts three times, as on MongoDB). */
export const FTS_WEIGHTS: readonly number[] = FTS_COLUMNS.map((c) => TEXT_WEIGHTS[c])
/** FTS5's rank: bm25 with the weights (kept in the index's config, so every `rank` uses them). */
export const FTS_RANK = `bm25(${FTS_WEIGHTS.map((w) => w.toFixed(1)).join(', ')})`

type Db = { exec(sql: string): unknown; prepare(sql: string): { get(...a: unknown[]): unknown; all(...a: unknown[]): unknown[] } }

type SchemaObject = { type: 'table' | 'index' | 'trigger'; name: string }

/** The triggers that keep each row in its text index (public or hidden). */
export const TEXT_INDEX_TRIGGERS = ['raw_content_ai_public', 'raw_content_ai_hidden', 'raw_content_au_text', 'raw_content_au_text_hidden']

/** The record of changed rows the search corpus follows (./searchCorpus), kept by these triggers. */
export const TEXT_CHANGE_TRIGGERS = ['raw_content_tc_ai', 'raw_content_tc_au', 'raw_content_tc_ad', 'raw_content_tc_prune']

/** The record of written rows each process marks its caches' rows by (../generations), kept by these triggers. */
export const ROW_CHANGE_TRIGGERS = ['raw_content_rc_ai', 'raw_content_rc_au', 'raw_content_rc_ad', 'raw_content_rc_prune']

/**
 * Payload's side tables whose writes move a domain too: a user's roles (users_rels) and a role's
 * permissions (roles_permissions) may change without their main row.
 */
const SIDE_TABLES: Partial<Record<Domain, readonly string[]>> = { access: ['users_rels', 'roles_permissions'] }

/** The counters' triggers: every write to a domain's tables, updates and deletes of the tables it refers to. */
function counterTriggers(): string[] {
  const out: string[] = []
  for (const domain of DOMAINS) {
    for (const table of [...VERSIONED_COLLECTIONS[domain].map(tableOf), ...(SIDE_TABLES[domain] ?? [])]) {
      for (const op of ['insert', 'update', 'delete']) out.push(`raw_version_${table}_${op}`)
    }
    // Content's writes to public rows move the public generation too (../versionDomains).
    if (domain === 'content') for (const op of ['insert', 'update', 'delete']) out.push(`raw_version_${CONTENT}_${op}_public`)
    for (const slug of REFERENCED_COLLECTIONS[domain] ?? []) {
      for (const op of ['update', 'delete']) out.push(`raw_version_${tableOf(slug)}_${op}`)
    }
  }
  return out
}

/**
 * What the service's SQL relies on. A migration that drops one (SQLite drops a table's
 * triggers and indexes with it, as a rebuilt `content` would) must create it again.
 */
export function requiredObjects(): SchemaObject[] {
  const of = (type: SchemaObject['type'], names: string[]) => names.map((name) => ({ type, name }))
  return [
    ...of('table', [FTS_TABLE, HIDDEN_FTS_TABLE, 'raw_content_tags', 'raw_versions', 'raw_follow_ups', 'raw_rate_limits', 'raw_content_text_changes', 'raw_content_row_changes']),
    ...of('index', [
      'raw_content_list',
      'raw_content_alpha',
      'raw_content_approved_at',
      'raw_content_status_approved_at',
      'raw_content_by_group',
      'raw_content_by_channel',
      'raw_content_by_platform',
      'raw_content_by_submitter',
      'raw_content_url_key',
      'raw_content_tags_row',
      'raw_follow_ups_due',
    ]),
    ...of('trigger', ['raw_content_ai', ...TEXT_INDEX_TRIGGERS, 'raw_content_au_tags', 'raw_content_ad', ...TEXT_CHANGE_TRIGGERS, ...ROW_CHANGE_TRIGGERS, ...counterTriggers()]),
  ]
}

export class MissingSchemaObjects extends Error {
  constructor(readonly missing: SchemaObject[]) {
    super(
      `The database lacks ${missing.map((o) => `${o.type} ${o.name}`).join(', ')}: its migrations did not create them ` +
        '(a migration that rebuilds a table must create its raw_ triggers and indexes again).',
    )
    this.name = 'MissingSchemaObjects'
  }
}

export class TextIndexSettings extends Error {
  constructor(found: string) {
    super(
      `The text index ${FTS_TABLE} was made with other settings (${found}) than the code reads it with ` +
        `(tokenize = ${FTS_TOKENIZE}, rank ${FTS_RANK}): a migration must rebuild it.`,
    )
    this.name = 'TextIndexSettings'
  }
}

/**
 * Throws MissingSchemaObjects naming every required object the database does not have, and
 * TextIndexSettings when the text index's tokenizer or rank is not the one the code reads it with
 * (the service computes bm25 itself from the index's parts: src/db/sqlite/search/wordReading.ts).
 */
export function checkContentSchema(db: Db): void {
  const present = new Set(
    (db.prepare('SELECT type, name FROM sqlite_master').all() as { type: string; name: string }[]).map((r) => `${r.type} ${r.name}`),
  )
  const missing = requiredObjects().filter((o) => !present.has(`${o.type} ${o.name}`))
  if (missing.length > 0) throw new MissingSchemaObjects(missing)
  for (const table of [FTS_TABLE, HIDDEN_FTS_TABLE]) {
    const { sql } = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) as { sql: string }
    const rank = (db.prepare(`SELECT v FROM ${table}_config WHERE k = 'rank'`).get() as { v: string } | undefined)?.v
    if (!sql.includes(`tokenize = ${FTS_TOKENIZE}`) || rank !== FTS_RANK) throw new TextIndexSettings(`${sql}; rank ${rank ?? 'bm25()'}`)
  }
}

/**
 * Rebuilds the FTS and tag tables when their rows drifted from the content table, puts back a
 * domain's missing counter; gathers statistics once.
 */
export function repairContentIndexes(db: Db): void {
  db.exec('BEGIN IMMEDIATE')
  let rebuilt = false
  try {
    const counts = db
      .prepare(
        `SELECT (SELECT count(*) FROM ${CONTENT} c WHERE ${PUBLIC_ROW}) AS p, (SELECT count(*) FROM ${CONTENT} c WHERE NOT (${PUBLIC_ROW})) AS h,
           (SELECT count(*) FROM ${FTS_TABLE}) AS f, (SELECT count(*) FROM ${HIDDEN_FTS_TABLE}) AS fh`,
      )
      .get() as { p: number; h: number; f: number; fh: number }
    if (counts.p !== counts.f || counts.h !== counts.fh) {
      db.exec(`DELETE FROM ${FTS_TABLE}`)
      db.exec(`DELETE FROM ${HIDDEN_FTS_TABLE}`)
      db.exec(`INSERT INTO ${FTS_TABLE}(rowid, title, description) SELECT rowid, title, coalesce(description, '') FROM ${CONTENT} c WHERE ${PUBLIC_ROW}`)
      db.exec(`INSERT INTO ${HIDDEN_FTS_TABLE}(rowid, title, description) SELECT rowid, title, coalesce(description, '') FROM ${CONTENT} c WHERE NOT (${PUBLIC_ROW})`)
      db.exec("INSERT INTO raw_content_text_changes(row) VALUES (-1)")
      db.exec('DELETE FROM raw_content_tags')
      db.exec(
        `INSERT OR IGNORE INTO raw_content_tags(tag, content_rowid)
         SELECT j.value, c.rowid FROM ${CONTENT} c, json_each(CASE WHEN json_valid(c.tag_slugs) THEN c.tag_slugs ELSE '[]' END) j
         WHERE j.type = 'text'`,
      )
      rebuilt = true
    }
    // Every domain's counter (a lost row would leave its generation still, its caches stale for good).
    const insertCounter = db.prepare('INSERT OR IGNORE INTO raw_versions (name, n) VALUES (?, ?)')
    for (const domain of DOMAINS) insertCounter.get(domain, Date.now())
    db.exec('COMMIT')
    // Planner statistics: gathered once (or after a rebuild); later starts let SQLite decide.
    const hasStats =
      db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").get() !== undefined &&
      db.prepare('SELECT 1 FROM sqlite_stat1 WHERE tbl = ? LIMIT 1').get(CONTENT) !== undefined
    db.exec(rebuilt || !hasStats ? 'ANALYZE' : 'PRAGMA optimize')
  } catch (err) {
    if ((db as { inTransaction?: boolean }).inTransaction) db.exec('ROLLBACK')
    throw err
  }
}
