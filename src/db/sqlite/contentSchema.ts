/**
 * Raw SQLite objects beside Payload's tables (named raw_* so schema sync leaves them be):
 * list indexes, the tag side table and the FTS5 text index, both kept in sync by triggers
 * so every write path (Payload, admin panel, bulk seed) maintains them, and the change
 * counters behind the content and taxonomy versions. Idempotent.
 */
type Db = { exec(sql: string): unknown; prepare(sql: string): { get(...a: unknown[]): unknown; all(...a: unknown[]): unknown[] } }

const INDEXES = [
  'CREATE INDEX IF NOT EXISTS raw_content_list ON content(status, is_active, approved_at, id)',
  'CREATE INDEX IF NOT EXISTS raw_content_alpha ON content(status, is_active, title, id)',
  // Payload's own reads (admin list sorted by -approvedAt, its REST where[status]).
  'CREATE INDEX IF NOT EXISTS raw_content_approved_at ON content(approved_at)',
  'CREATE INDEX IF NOT EXISTS raw_content_status_approved_at ON content(status, approved_at)',
  // Covering for a filter + the default sort: no row lookups while skipping an offset.
  'CREATE INDEX IF NOT EXISTS raw_content_by_group ON content(group_id, status, is_active, approved_at, id)',
  'CREATE INDEX IF NOT EXISTS raw_content_by_channel ON content(channel_id, status, is_active, approved_at, id)',
  'CREATE INDEX IF NOT EXISTS raw_content_by_platform ON content(platform_id, status, is_active, approved_at, id)',
  // GET /auth/me/submissions: one submitter's items, newest first.
  'CREATE INDEX IF NOT EXISTS raw_content_by_submitter ON content(submitted_by_id, created_at, id)',
  // Superseded shapes from earlier builds.
  'DROP INDEX IF EXISTS raw_content_group_list',
  'DROP INDEX IF EXISTS raw_content_channel_list',
  'DROP INDEX IF EXISTS raw_content_platform_list',
]

const TABLES = [
  `CREATE TABLE IF NOT EXISTS raw_content_tags (
     tag TEXT NOT NULL, content_rowid INTEGER NOT NULL, PRIMARY KEY (tag, content_rowid)
   ) WITHOUT ROWID`,
  'CREATE INDEX IF NOT EXISTS raw_content_tags_row ON raw_content_tags(content_rowid)',
  `CREATE VIRTUAL TABLE IF NOT EXISTS raw_content_fts USING fts5(
     title, description, tokenize = 'porter unicode61 remove_diacritics 2'
   )`,
]

/**
 * Change counters: any insert, update or delete on these tables, by any connection in any
 * process, moves its counter in the same transaction, so reading a version is one key lookup.
 */
export const VERSIONED_TABLES: Record<string, string[]> = {
  content: ['content'],
  taxonomy: ['surfaces', 'groups', 'channels', 'platforms', 'tags', 'facets'],
}

function versionObjects(): string[] {
  // Counters start at the clock, so a re-created table never repeats a version seen before.
  const start = Date.now()
  const out = [
    'CREATE TABLE IF NOT EXISTS raw_versions (name TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID',
  ]
  for (const [name, tables] of Object.entries(VERSIONED_TABLES)) {
    out.push(`INSERT OR IGNORE INTO raw_versions (name, n) VALUES ('${name}', ${start})`)
    for (const table of tables) {
      for (const op of ['INSERT', 'UPDATE', 'DELETE']) {
        out.push(`CREATE TRIGGER IF NOT EXISTS raw_version_${table}_${op.toLowerCase()} AFTER ${op} ON "${table}"
          BEGIN UPDATE raw_versions SET n = n + 1 WHERE name = '${name}'; END`)
      }
    }
  }
  return out
}

const TAGS_OF_NEW = `SELECT value, new.rowid FROM json_each(CASE WHEN json_valid(new.tag_slugs) THEN new.tag_slugs ELSE '[]' END) WHERE type = 'text'`

const TRIGGERS: Record<string, string> = {
  raw_content_ai: `CREATE TRIGGER raw_content_ai AFTER INSERT ON content BEGIN
     INSERT INTO raw_content_fts(rowid, title, description) VALUES (new.rowid, new.title, coalesce(new.description, ''));
     INSERT OR IGNORE INTO raw_content_tags(tag, content_rowid) ${TAGS_OF_NEW};
   END`,
  raw_content_au_text: `CREATE TRIGGER raw_content_au_text AFTER UPDATE OF title, description ON content BEGIN
     DELETE FROM raw_content_fts WHERE rowid = old.rowid;
     INSERT INTO raw_content_fts(rowid, title, description) VALUES (new.rowid, new.title, coalesce(new.description, ''));
   END`,
  raw_content_au_tags: `CREATE TRIGGER raw_content_au_tags AFTER UPDATE OF tag_slugs ON content BEGIN
     DELETE FROM raw_content_tags WHERE content_rowid = old.rowid;
     INSERT OR IGNORE INTO raw_content_tags(tag, content_rowid) ${TAGS_OF_NEW};
   END`,
  raw_content_ad: `CREATE TRIGGER raw_content_ad AFTER DELETE ON content BEGIN
     DELETE FROM raw_content_fts WHERE rowid = old.rowid;
     DELETE FROM raw_content_tags WHERE content_rowid = old.rowid;
   END`,
}

/** Creates what is missing; rebuilds the FTS and tag tables when triggers were (re)created or counts drifted. */
export function ensureContentSchema(db: Db): void {
  db.exec('BEGIN IMMEDIATE')
  try {
    for (const sql of [...INDEXES, ...TABLES, ...versionObjects()]) db.exec(sql)
    const existing = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'content'").all() as { name: string }[]).map(
        (r) => r.name,
      ),
    )
    let rebuild = false
    for (const [name, sql] of Object.entries(TRIGGERS)) {
      if (!existing.has(name)) {
        db.exec(sql)
        rebuild = true
      }
    }
    const counts = db
      .prepare('SELECT (SELECT count(*) FROM content) AS c, (SELECT count(*) FROM raw_content_fts) AS f')
      .get() as { c: number; f: number }
    if (rebuild || counts.c !== counts.f) {
      // A schema sync that recreated `content` drops triggers and may renumber rowids.
      db.exec('DELETE FROM raw_content_fts')
      db.exec(
        "INSERT INTO raw_content_fts(rowid, title, description) SELECT rowid, title, coalesce(description, '') FROM content",
      )
      db.exec('DELETE FROM raw_content_tags')
      db.exec(
        `INSERT OR IGNORE INTO raw_content_tags(tag, content_rowid)
         SELECT j.value, c.rowid FROM content c, json_each(CASE WHEN json_valid(c.tag_slugs) THEN c.tag_slugs ELSE '[]' END) j
         WHERE j.type = 'text'`,
      )
    }
    db.exec('COMMIT')
    // Planner statistics: gathered once (or after a rebuild); later starts let SQLite decide.
    const hasStats =
      db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").get() !== undefined &&
      db.prepare("SELECT 1 FROM sqlite_stat1 WHERE tbl = 'content' LIMIT 1").get() !== undefined
    db.exec(rebuild || !hasStats ? 'ANALYZE' : 'PRAGMA optimize')
  } catch (err) {
    if ((db as { inTransaction?: boolean }).inTransaction) db.exec('ROLLBACK')
    throw err
  }
}
