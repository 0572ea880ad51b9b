/**
 * Raw SQLite objects beside Payload's tables (named raw_* so schema sync leaves them be):
 * list indexes, the tag side table and the FTS5 text index, both kept in sync by triggers
 * so every write path (Payload, admin panel, bulk seed) maintains them, and the change
 * counters behind the content, taxonomy and branding versions. Idempotent.
 */
import { FTS_TOKENCHARS, TEXT_WEIGHTS } from '../searchTerms'
import { DOMAINS, REFERENCED_COLLECTIONS, VERSIONED_COLLECTIONS, type Domain } from '../versionDomains'
import { TABLES, tableOf } from './tables'

const CONTENT = TABLES.content

/** The text index over title and description (./textRanking reads its parts). */
export const FTS_TABLE = 'raw_content_fts'
/** Its columns, in order: each row's docsize record holds one length per column. */
export const FTS_COLUMNS = ['title', 'description'] as const
/**
 * Stemmed, without accents or case, and `_` inside a word as MongoDB's text index keeps it
 * (../searchTerms). A database made with other settings is re-indexed at start-up.
 */
export const FTS_TOKENIZE = `"porter unicode61 remove_diacritics 2 tokenchars '${FTS_TOKENCHARS}'"`
/** Each column's weight in bm25, in column order (a title match counts three times, as on MongoDB). */
export const FTS_WEIGHTS: readonly number[] = FTS_COLUMNS.map((c) => TEXT_WEIGHTS[c])
/** FTS5's rank: bm25 with the weights (kept in the index's config, so every `rank` uses them). */
export const FTS_RANK = `bm25(${FTS_WEIGHTS.map((w) => w.toFixed(1)).join(', ')})`
const FTS_CREATE = `CREATE VIRTUAL TABLE ${FTS_TABLE} USING fts5(${FTS_COLUMNS.join(', ')}, tokenize = ${FTS_TOKENIZE})`

type Db = {
  exec(sql: string): unknown
  prepare(sql: string): { get(...a: unknown[]): unknown; all(...a: unknown[]): unknown[]; run(...a: unknown[]): unknown }
}

const INDEXES = [
  `CREATE INDEX IF NOT EXISTS raw_content_list ON ${CONTENT}(status, is_active, approved_at, id)`,
  `CREATE INDEX IF NOT EXISTS raw_content_alpha ON ${CONTENT}(status, is_active, title, id)`,
  // Payload's own reads (admin list sorted by -approvedAt, its REST where[status]).
  `CREATE INDEX IF NOT EXISTS raw_content_approved_at ON ${CONTENT}(approved_at)`,
  `CREATE INDEX IF NOT EXISTS raw_content_status_approved_at ON ${CONTENT}(status, approved_at)`,
  // Covering for a filter + the default sort: no row lookups while skipping an offset.
  `CREATE INDEX IF NOT EXISTS raw_content_by_group ON ${CONTENT}(group_id, status, is_active, approved_at, id)`,
  `CREATE INDEX IF NOT EXISTS raw_content_by_channel ON ${CONTENT}(channel_id, status, is_active, approved_at, id)`,
  `CREATE INDEX IF NOT EXISTS raw_content_by_platform ON ${CONTENT}(platform_id, status, is_active, approved_at, id)`,
  // GET /auth/me/submissions: one submitter's items, newest first.
  `CREATE INDEX IF NOT EXISTS raw_content_by_submitter ON ${CONTENT}(submitted_by_id, created_at, id)`,
  // Superseded shapes from earlier builds.
  'DROP INDEX IF EXISTS raw_content_group_list',
  'DROP INDEX IF EXISTS raw_content_channel_list',
  'DROP INDEX IF EXISTS raw_content_platform_list',
]

const RAW_TABLES = [
  `CREATE TABLE IF NOT EXISTS raw_content_tags (
     tag TEXT NOT NULL, content_rowid INTEGER NOT NULL, PRIMARY KEY (tag, content_rowid)
   ) WITHOUT ROWID`,
  'CREATE INDEX IF NOT EXISTS raw_content_tags_row ON raw_content_tags(content_rowid)',
]

/**
 * Change counters: any insert, update or delete on a domain's tables (and any update or
 * delete of a table it refers to), by any connection in any process, moves the domain's
 * counter in the same transaction, so reading a version is one key lookup.
 */
function versionObjects(): string[] {
  // Counters start at the clock, so a re-created table never repeats a version seen before.
  const start = Date.now()
  const out = [
    'CREATE TABLE IF NOT EXISTS raw_versions (name TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID',
  ]
  const trigger = (domain: Domain, table: string, op: string) =>
    `CREATE TRIGGER IF NOT EXISTS raw_version_${table}_${op.toLowerCase()} AFTER ${op} ON "${table}"
       BEGIN UPDATE raw_versions SET n = n + 1 WHERE name = '${domain}'; END`
  for (const domain of DOMAINS) {
    out.push(`INSERT OR IGNORE INTO raw_versions (name, n) VALUES ('${domain}', ${start})`)
    for (const slug of VERSIONED_COLLECTIONS[domain]) {
      for (const op of ['INSERT', 'UPDATE', 'DELETE']) out.push(trigger(domain, tableOf(slug), op))
    }
    for (const slug of REFERENCED_COLLECTIONS[domain] ?? []) {
      for (const op of ['UPDATE', 'DELETE']) out.push(trigger(domain, tableOf(slug), op))
    }
  }
  return out
}

const TAGS_OF_NEW = `SELECT value, new.rowid FROM json_each(CASE WHEN json_valid(new.tag_slugs) THEN new.tag_slugs ELSE '[]' END) WHERE type = 'text'`

const TRIGGERS: Record<string, string> = {
  raw_content_ai: `CREATE TRIGGER raw_content_ai AFTER INSERT ON ${CONTENT} BEGIN
     INSERT INTO raw_content_fts(rowid, title, description) VALUES (new.rowid, new.title, coalesce(new.description, ''));
     INSERT OR IGNORE INTO raw_content_tags(tag, content_rowid) ${TAGS_OF_NEW};
   END`,
  raw_content_au_text: `CREATE TRIGGER raw_content_au_text AFTER UPDATE OF title, description ON ${CONTENT} BEGIN
     DELETE FROM raw_content_fts WHERE rowid = old.rowid;
     INSERT INTO raw_content_fts(rowid, title, description) VALUES (new.rowid, new.title, coalesce(new.description, ''));
   END`,
  raw_content_au_tags: `CREATE TRIGGER raw_content_au_tags AFTER UPDATE OF tag_slugs ON ${CONTENT} BEGIN
     DELETE FROM raw_content_tags WHERE content_rowid = old.rowid;
     INSERT OR IGNORE INTO raw_content_tags(tag, content_rowid) ${TAGS_OF_NEW};
   END`,
  raw_content_ad: `CREATE TRIGGER raw_content_ad AFTER DELETE ON ${CONTENT} BEGIN
     DELETE FROM raw_content_fts WHERE rowid = old.rowid;
     DELETE FROM raw_content_tags WHERE content_rowid = old.rowid;
   END`,
}

/**
 * The text index as FTS_CREATE defines it, with FTS_RANK as its rank: made when missing, and
 * dropped and made again when its tokenizer differs (an older build's). True when it starts
 * empty and must be filled.
 */
function ensureTextIndex(db: Db): boolean {
  const existing = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(FTS_TABLE) as { sql: string } | undefined
  const current = existing !== undefined && existing.sql.includes(`tokenize = ${FTS_TOKENIZE}`)
  if (existing && !current) db.exec(`DROP TABLE ${FTS_TABLE}`)
  if (!current) db.exec(FTS_CREATE)
  const rank = db.prepare(`SELECT v FROM ${FTS_TABLE}_config WHERE k = 'rank'`).get() as { v: string } | undefined
  if (rank?.v !== FTS_RANK) db.prepare(`INSERT INTO ${FTS_TABLE}(${FTS_TABLE}, rank) VALUES ('rank', ?)`).run(FTS_RANK)
  return !current
}

/** Creates what is missing; rebuilds the FTS and tag tables when triggers or the text index were (re)created or counts drifted. */
export function ensureContentSchema(db: Db): void {
  db.exec('BEGIN IMMEDIATE')
  try {
    for (const sql of [...INDEXES, ...RAW_TABLES, ...versionObjects()]) db.exec(sql)
    let rebuild = ensureTextIndex(db)
    const existing = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?").all(CONTENT) as { name: string }[]).map(
        (r) => r.name,
      ),
    )
    for (const [name, sql] of Object.entries(TRIGGERS)) {
      if (!existing.has(name)) {
        db.exec(sql)
        rebuild = true
      }
    }
    const counts = db
      .prepare(`SELECT (SELECT count(*) FROM ${CONTENT}) AS c, (SELECT count(*) FROM raw_content_fts) AS f`)
      .get() as { c: number; f: number }
    if (rebuild || counts.c !== counts.f) {
      // A schema sync that recreated `content` drops triggers and may renumber rowids.
      db.exec('DELETE FROM raw_content_fts')
      db.exec(
        `INSERT INTO raw_content_fts(rowid, title, description) SELECT rowid, title, coalesce(description, '') FROM ${CONTENT}`,
      )
      db.exec('DELETE FROM raw_content_tags')
      db.exec(
        `INSERT OR IGNORE INTO raw_content_tags(tag, content_rowid)
         SELECT j.value, c.rowid FROM ${CONTENT} c, json_each(CASE WHEN json_valid(c.tag_slugs) THEN c.tag_slugs ELSE '[]' END) j
         WHERE j.type = 'text'`,
      )
    }
    db.exec('COMMIT')
    // Planner statistics: gathered once (or after a rebuild); later starts let SQLite decide.
    const hasStats =
      db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").get() !== undefined &&
      db.prepare('SELECT 1 FROM sqlite_stat1 WHERE tbl = ? LIMIT 1').get(CONTENT) !== undefined
    db.exec(rebuild || !hasStats ? 'ANALYZE' : 'PRAGMA optimize')
  } catch (err) {
    if ((db as { inTransaction?: boolean }).inTransaction) db.exec('ROLLBACK')
    throw err
  }
}
