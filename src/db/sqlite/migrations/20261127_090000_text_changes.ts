/**
 * A record of which content rows' searchable state changed, so the search corpus
 * (src/db/sqlite/search/searchCorpus.ts) follows a write by reading the rows it changed instead of
 * the whole index again (on the event loop, after every write; docs/benchmarks.md, *Measurements behind the code*).
 * Triggers on `content` add the row's rowid after every insert, delete, and update of what the
 * ranking reads of a row (its text, its public status, its approval time); a sequence orders the
 * entries, and every thousandth entry drops those 20,000 behind it. A bulk load writes one
 * entry of -1 instead ("everything changed": read the corpus whole). Frozen here.
 */
import { MigrateDownArgs, MigrateUpArgs, sql } from '@payloadcms/db-sqlite'

const KEPT = 20_000
const PRUNE_EVERY = 1_000

const OBJECTS = [
  'CREATE TABLE IF NOT EXISTS raw_content_text_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, row INTEGER NOT NULL)',
  `CREATE TRIGGER IF NOT EXISTS raw_content_tc_ai AFTER INSERT ON content BEGIN
     INSERT INTO raw_content_text_changes(row) VALUES (new.rowid);
   END`,
  `CREATE TRIGGER IF NOT EXISTS raw_content_tc_au AFTER UPDATE OF title, description, status, is_active, approved_at ON content BEGIN
     INSERT INTO raw_content_text_changes(row) VALUES (new.rowid);
   END`,
  `CREATE TRIGGER IF NOT EXISTS raw_content_tc_ad AFTER DELETE ON content BEGIN
     INSERT INTO raw_content_text_changes(row) VALUES (old.rowid);
   END`,
  `CREATE TRIGGER IF NOT EXISTS raw_content_tc_prune AFTER INSERT ON raw_content_text_changes WHEN new.seq % ${PRUNE_EVERY} = 0 BEGIN
     DELETE FROM raw_content_text_changes WHERE seq <= new.seq - ${KEPT};
   END`,
  // A corpus read before this migration knows no entries: start from "everything changed".
  'INSERT INTO raw_content_text_changes(row) VALUES (-1)',
]

export async function up({ db }: MigrateUpArgs): Promise<void> {
  for (const statement of OBJECTS) await db.run(sql.raw(statement))
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  for (const name of ['raw_content_tc_ai', 'raw_content_tc_au', 'raw_content_tc_ad', 'raw_content_tc_prune']) await db.run(sql.raw(`DROP TRIGGER IF EXISTS ${name}`))
  await db.run(sql.raw('DROP TABLE IF EXISTS raw_content_text_changes'))
}
