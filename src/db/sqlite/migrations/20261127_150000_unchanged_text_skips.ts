/**
 * Payload's update of a content row sets every column, so an `AFTER UPDATE OF title, …` trigger
 * fires when none of them changed: linking an approval's thumbnail re-indexed the row in FTS5
 * (a delete and an insert) and recorded a text change, which the search corpus then followed and
 * every kept word checked its rows against (src/db/sqlite/search/searchCorpus, wordCache). The text
 * triggers now fire only when what they copy or record changed: the title, the description, the
 * status or the active flag (and, for the record, the approval time, a row's place in the
 * recency order). Re-indexing identical text changes nothing a search reads. Frozen here.
 */
import { MigrateDownArgs, MigrateUpArgs, sql } from '@payloadcms/db-sqlite'

const PUBLIC = "new.status = 'approved' AND new.is_active = 1"
const ROW = "new.rowid, new.title, coalesce(new.description, '')"
const changed = (columns: string[]) => `(${columns.map((c) => `old.${c} IS NOT new.${c}`).join(' OR ')})`
const INDEXED = changed(['title', 'description', 'status', 'is_active'])
const RECORDED = changed(['title', 'description', 'status', 'is_active', 'approved_at'])

const textTriggers = (when: { indexed: string; recorded: string }) => [
  'DROP TRIGGER IF EXISTS raw_content_au_text',
  'DROP TRIGGER IF EXISTS raw_content_au_text_hidden',
  'DROP TRIGGER IF EXISTS raw_content_tc_au',
  `CREATE TRIGGER raw_content_au_text AFTER UPDATE OF title, description, status, is_active ON content WHEN ${PUBLIC}${when.indexed} BEGIN
     DELETE FROM raw_content_fts WHERE rowid = old.rowid;
     DELETE FROM raw_content_fts_hidden WHERE rowid = old.rowid;
     INSERT INTO raw_content_fts(rowid, title, description) VALUES (${ROW});
   END`,
  `CREATE TRIGGER raw_content_au_text_hidden AFTER UPDATE OF title, description, status, is_active ON content WHEN NOT (${PUBLIC})${when.indexed} BEGIN
     DELETE FROM raw_content_fts WHERE rowid = old.rowid;
     DELETE FROM raw_content_fts_hidden WHERE rowid = old.rowid;
     INSERT INTO raw_content_fts_hidden(rowid, title, description) VALUES (${ROW});
   END`,
  `CREATE TRIGGER raw_content_tc_au AFTER UPDATE OF title, description, status, is_active, approved_at ON content${when.recorded} BEGIN
     INSERT INTO raw_content_text_changes(row) VALUES (new.rowid);
   END`,
]

export async function up({ db }: MigrateUpArgs): Promise<void> {
  for (const statement of textTriggers({ indexed: ` AND ${INDEXED}`, recorded: ` WHEN ${RECORDED}` })) await db.run(sql.raw(statement))
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  for (const statement of textTriggers({ indexed: '', recorded: '' })) await db.run(sql.raw(statement))
}
