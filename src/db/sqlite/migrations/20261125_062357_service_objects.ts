/**
 * The service's own SQLite objects beside Payload's tables, as the release before migrations
 * created them at start-up (src/db/sqlite/contentSchema.ts, followUpOutbox.ts,
 * authPrimitives.ts, urlKeys.ts), frozen here as SQL. Every statement is IF NOT EXISTS: on a
 * database that release made (its Payload tables recognised by the baseline,
 * src/db/sqlite/migrationBaseline.ts) they already exist and are kept, data and all; on a new
 * database they are created. That release's record of schema pushes (raw_schema_sync) is
 * dropped: migrations replace it.
 */
import { MigrateDownArgs, MigrateUpArgs, sql } from '@payloadcms/db-sqlite'

/** The full-text index over content (title, description) and the tag side table, kept by triggers. */
const CONTENT_INDEXES = [
  `CREATE TABLE IF NOT EXISTS raw_content_tags (
     tag TEXT NOT NULL, content_rowid INTEGER NOT NULL, PRIMARY KEY (tag, content_rowid)
   ) WITHOUT ROWID`,
  'CREATE INDEX IF NOT EXISTS raw_content_tags_row ON raw_content_tags(content_rowid)',
  "CREATE VIRTUAL TABLE IF NOT EXISTS raw_content_fts USING fts5(title, description, tokenize = 'porter unicode61 remove_diacritics 2')",
  `CREATE TRIGGER IF NOT EXISTS raw_content_ai AFTER INSERT ON content BEGIN
     INSERT INTO raw_content_fts(rowid, title, description) VALUES (new.rowid, new.title, coalesce(new.description, ''));
     INSERT OR IGNORE INTO raw_content_tags(tag, content_rowid) SELECT value, new.rowid FROM json_each(CASE WHEN json_valid(new.tag_slugs) THEN new.tag_slugs ELSE '[]' END) WHERE type = 'text';
   END`,
  `CREATE TRIGGER IF NOT EXISTS raw_content_au_text AFTER UPDATE OF title, description ON content BEGIN
     DELETE FROM raw_content_fts WHERE rowid = old.rowid;
     INSERT INTO raw_content_fts(rowid, title, description) VALUES (new.rowid, new.title, coalesce(new.description, ''));
   END`,
  `CREATE TRIGGER IF NOT EXISTS raw_content_au_tags AFTER UPDATE OF tag_slugs ON content BEGIN
     DELETE FROM raw_content_tags WHERE content_rowid = old.rowid;
     INSERT OR IGNORE INTO raw_content_tags(tag, content_rowid) SELECT value, new.rowid FROM json_each(CASE WHEN json_valid(new.tag_slugs) THEN new.tag_slugs ELSE '[]' END) WHERE type = 'text';
   END`,
  `CREATE TRIGGER IF NOT EXISTS raw_content_ad AFTER DELETE ON content BEGIN
     DELETE FROM raw_content_fts WHERE rowid = old.rowid;
     DELETE FROM raw_content_tags WHERE content_rowid = old.rowid;
   END`,
]

/** The list reads' indexes on content (the public list, its filters and sorts, Payload's admin list). */
const LIST_INDEXES = [
  'CREATE INDEX IF NOT EXISTS raw_content_list ON content(status, is_active, approved_at, id)',
  'CREATE INDEX IF NOT EXISTS raw_content_alpha ON content(status, is_active, title, id)',
  'CREATE INDEX IF NOT EXISTS raw_content_approved_at ON content(approved_at)',
  'CREATE INDEX IF NOT EXISTS raw_content_status_approved_at ON content(status, approved_at)',
  'CREATE INDEX IF NOT EXISTS raw_content_by_group ON content(group_id, status, is_active, approved_at, id)',
  'CREATE INDEX IF NOT EXISTS raw_content_by_channel ON content(channel_id, status, is_active, approved_at, id)',
  'CREATE INDEX IF NOT EXISTS raw_content_by_platform ON content(platform_id, status, is_active, approved_at, id)',
  'CREATE INDEX IF NOT EXISTS raw_content_by_submitter ON content(submitted_by_id, created_at, id)',
  // One new item per normalised URL (ordinal 0); rows without a key stay out (NULLs are distinct).
  'CREATE UNIQUE INDEX IF NOT EXISTS raw_content_url_key ON content(url_key, url_key_ordinal)',
  // Superseded shapes from builds before the release.
  'DROP INDEX IF EXISTS raw_content_group_list',
  'DROP INDEX IF EXISTS raw_content_channel_list',
  'DROP INDEX IF EXISTS raw_content_platform_list',
]

/** The follow-up outbox and the rate-limit counters. */
const SERVICE_TABLES = [
  `CREATE TABLE IF NOT EXISTS raw_follow_ups (
     id TEXT PRIMARY KEY NOT NULL,
     content_id TEXT NOT NULL,
     kind TEXT NOT NULL,
     status TEXT NOT NULL DEFAULT 'queued',
     claimed_by TEXT,
     claimed_until INTEGER,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_run_at INTEGER NOT NULL,
     last_error TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     UNIQUE (content_id, kind)
   )`,
  'CREATE INDEX IF NOT EXISTS raw_follow_ups_due ON raw_follow_ups(status, next_run_at)',
  `CREATE TABLE IF NOT EXISTS raw_rate_limits (
     key TEXT PRIMARY KEY NOT NULL,
     points INTEGER NOT NULL,
     reset_at INTEGER NOT NULL
   )`,
]

const DOMAINS = ['content', 'taxonomy', 'branding']

/**
 * Change counters, [table, operation, domain]: each write moves its domain's counter in the
 * writing transaction (media: updates and deletes only, as the branding record shows its URL).
 */
const COUNTED_WRITES: [string, string, string][] = [
  ['content', 'INSERT', 'content'],
  ['content', 'UPDATE', 'content'],
  ['content', 'DELETE', 'content'],
  ['surfaces', 'INSERT', 'taxonomy'],
  ['surfaces', 'UPDATE', 'taxonomy'],
  ['surfaces', 'DELETE', 'taxonomy'],
  ['groups', 'INSERT', 'taxonomy'],
  ['groups', 'UPDATE', 'taxonomy'],
  ['groups', 'DELETE', 'taxonomy'],
  ['channels', 'INSERT', 'taxonomy'],
  ['channels', 'UPDATE', 'taxonomy'],
  ['channels', 'DELETE', 'taxonomy'],
  ['platforms', 'INSERT', 'taxonomy'],
  ['platforms', 'UPDATE', 'taxonomy'],
  ['platforms', 'DELETE', 'taxonomy'],
  ['tags', 'INSERT', 'taxonomy'],
  ['tags', 'UPDATE', 'taxonomy'],
  ['tags', 'DELETE', 'taxonomy'],
  ['facets', 'INSERT', 'taxonomy'],
  ['facets', 'UPDATE', 'taxonomy'],
  ['facets', 'DELETE', 'taxonomy'],
  ['branding', 'INSERT', 'branding'],
  ['branding', 'UPDATE', 'branding'],
  ['branding', 'DELETE', 'branding'],
  ['media', 'UPDATE', 'branding'],
  ['media', 'DELETE', 'branding'],
]

const counterTrigger = ([table, op, domain]: [string, string, string]) =>
  `CREATE TRIGGER IF NOT EXISTS raw_version_${table}_${op.toLowerCase()} AFTER ${op} ON "${table}"
     BEGIN UPDATE raw_versions SET n = n + 1 WHERE name = '${domain}'; END`

export async function up({ db }: MigrateUpArgs): Promise<void> {
  for (const statement of [...CONTENT_INDEXES, ...LIST_INDEXES, ...SERVICE_TABLES]) await db.run(sql.raw(statement))
  await db.run(sql.raw('CREATE TABLE IF NOT EXISTS raw_versions (name TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID'))
  // Counters start at the clock, so a re-created table never repeats a version seen before.
  const start = Date.now()
  for (const domain of DOMAINS) await db.run(sql`INSERT OR IGNORE INTO raw_versions (name, n) VALUES (${domain}, ${start})`)
  for (const write of COUNTED_WRITES) await db.run(sql.raw(counterTrigger(write)))
  await db.run(sql.raw('DROP TABLE IF EXISTS raw_schema_sync'))
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  for (const [table, op] of COUNTED_WRITES) await db.run(sql.raw(`DROP TRIGGER IF EXISTS raw_version_${table}_${op.toLowerCase()}`))
  for (const trigger of ['raw_content_ai', 'raw_content_au_text', 'raw_content_au_tags', 'raw_content_ad']) {
    await db.run(sql.raw(`DROP TRIGGER IF EXISTS ${trigger}`))
  }
  for (const index of [
    'raw_content_list',
    'raw_content_alpha',
    'raw_content_approved_at',
    'raw_content_status_approved_at',
    'raw_content_by_group',
    'raw_content_by_channel',
    'raw_content_by_platform',
    'raw_content_by_submitter',
    'raw_content_url_key',
  ]) {
    await db.run(sql.raw(`DROP INDEX IF EXISTS ${index}`))
  }
  for (const table of ['raw_versions', 'raw_rate_limits', 'raw_follow_ups', 'raw_content_fts', 'raw_content_tags']) {
    await db.run(sql.raw(`DROP TABLE IF EXISTS ${table}`))
  }
}
