/**
 * The public text index holds public rows only (approved and active): the search's public ranking
 * is FTS5's bm25 over that index, so its statistics (N, the mean length, the rows holding a word)
 * count what the public can find, and a pending submission, a rejection or a soft delete of a
 * pending item leaves them, and every cached public answer, as they are. Every other row is in
 * raw_content_fts_hidden (same tokenizer and rank), where moderators' searches find it. The
 * triggers keep each row in the index its status says, moving it when the status or the active
 * flag changes. Frozen here.
 */
import { MigrateDownArgs, MigrateUpArgs, sql } from '@payloadcms/db-sqlite'

const TOKENIZE = `"porter unicode61 remove_diacritics 2 tokenchars '_'"`
const RANK = 'bm25(3.0, 1.0)'
const PUBLIC = "new.status = 'approved' AND new.is_active = 1"
const ROW = "new.rowid, new.title, coalesce(new.description, '')"

const UP = [
  `CREATE VIRTUAL TABLE IF NOT EXISTS raw_content_fts_hidden USING fts5(title, description, tokenize = ${TOKENIZE})`,
  `INSERT INTO raw_content_fts_hidden(raw_content_fts_hidden, rank) VALUES ('rank', '${RANK}')`,
  // The rows the public cannot see move to the hidden index.
  `INSERT INTO raw_content_fts_hidden(rowid, title, description)
     SELECT rowid, title, coalesce(description, '') FROM content WHERE NOT (status = 'approved' AND is_active = 1)`,
  `DELETE FROM raw_content_fts WHERE rowid IN (SELECT rowid FROM content WHERE NOT (status = 'approved' AND is_active = 1))`,
  'DROP TRIGGER IF EXISTS raw_content_ai',
  'DROP TRIGGER IF EXISTS raw_content_au_text',
  'DROP TRIGGER IF EXISTS raw_content_ad',
  // One trigger per index and event, each with its WHEN (a statement's own WHERE on `new` made a
  // connection that had not yet read the new schema fail its first write: "no such table").
  `CREATE TRIGGER raw_content_ai AFTER INSERT ON content BEGIN
     INSERT OR IGNORE INTO raw_content_tags(tag, content_rowid) SELECT value, new.rowid FROM json_each(CASE WHEN json_valid(new.tag_slugs) THEN new.tag_slugs ELSE '[]' END) WHERE type = 'text';
   END`,
  `CREATE TRIGGER raw_content_ai_public AFTER INSERT ON content WHEN ${PUBLIC} BEGIN
     INSERT INTO raw_content_fts(rowid, title, description) VALUES (${ROW});
   END`,
  `CREATE TRIGGER raw_content_ai_hidden AFTER INSERT ON content WHEN NOT (${PUBLIC}) BEGIN
     INSERT INTO raw_content_fts_hidden(rowid, title, description) VALUES (${ROW});
   END`,
  `CREATE TRIGGER raw_content_au_text AFTER UPDATE OF title, description, status, is_active ON content WHEN ${PUBLIC} BEGIN
     DELETE FROM raw_content_fts WHERE rowid = old.rowid;
     DELETE FROM raw_content_fts_hidden WHERE rowid = old.rowid;
     INSERT INTO raw_content_fts(rowid, title, description) VALUES (${ROW});
   END`,
  `CREATE TRIGGER raw_content_au_text_hidden AFTER UPDATE OF title, description, status, is_active ON content WHEN NOT (${PUBLIC}) BEGIN
     DELETE FROM raw_content_fts WHERE rowid = old.rowid;
     DELETE FROM raw_content_fts_hidden WHERE rowid = old.rowid;
     INSERT INTO raw_content_fts_hidden(rowid, title, description) VALUES (${ROW});
   END`,
  `CREATE TRIGGER raw_content_ad AFTER DELETE ON content BEGIN
     DELETE FROM raw_content_fts WHERE rowid = old.rowid;
     DELETE FROM raw_content_fts_hidden WHERE rowid = old.rowid;
     DELETE FROM raw_content_tags WHERE content_rowid = old.rowid;
   END`,
  "INSERT INTO raw_content_fts(raw_content_fts) VALUES ('optimize')",
  // The corpus is read whole once more (./searchCorpus: "everything changed").
  'INSERT INTO raw_content_text_changes(row) VALUES (-1)',
]

const DOWN = [
  `INSERT INTO raw_content_fts(rowid, title, description) SELECT rowid, title, description FROM raw_content_fts_hidden`,
  'DROP TRIGGER IF EXISTS raw_content_ai_public',
  'DROP TRIGGER IF EXISTS raw_content_ai_hidden',
  'DROP TRIGGER IF EXISTS raw_content_au_text_hidden',
  'DROP TABLE IF EXISTS raw_content_fts_hidden',
  'DROP TRIGGER IF EXISTS raw_content_ai',
  'DROP TRIGGER IF EXISTS raw_content_au_text',
  'DROP TRIGGER IF EXISTS raw_content_ad',
  `CREATE TRIGGER raw_content_ai AFTER INSERT ON content BEGIN
     INSERT INTO raw_content_fts(rowid, title, description) VALUES (${ROW});
     INSERT OR IGNORE INTO raw_content_tags(tag, content_rowid) SELECT value, new.rowid FROM json_each(CASE WHEN json_valid(new.tag_slugs) THEN new.tag_slugs ELSE '[]' END) WHERE type = 'text';
   END`,
  `CREATE TRIGGER raw_content_au_text AFTER UPDATE OF title, description ON content BEGIN
     DELETE FROM raw_content_fts WHERE rowid = old.rowid;
     INSERT INTO raw_content_fts(rowid, title, description) VALUES (${ROW});
   END`,
  `CREATE TRIGGER raw_content_ad AFTER DELETE ON content BEGIN
     DELETE FROM raw_content_fts WHERE rowid = old.rowid;
     DELETE FROM raw_content_tags WHERE content_rowid = old.rowid;
   END`,
  'INSERT INTO raw_content_text_changes(row) VALUES (-1)',
]

export async function up({ db }: MigrateUpArgs): Promise<void> {
  for (const statement of UP) await db.run(sql.raw(statement))
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  for (const statement of DOWN) await db.run(sql.raw(statement))
}
