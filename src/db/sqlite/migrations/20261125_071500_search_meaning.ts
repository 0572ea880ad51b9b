/**
 * One search meaning on both engines (src/db/searchTerms.ts): the text index keeps `_` inside
 * a word (tokenchars, as MongoDB's text index does) and ranks with the title weighted 3, as
 * MongoDB's index weights it (bm25(3.0, 1.0)). An index made with the earlier settings is made
 * again and filled from the content table; its triggers (on `content`) stay as they are.
 * Frozen here: later changes to the settings need a migration of their own.
 */
import { MigrateDownArgs, MigrateUpArgs, sql } from '@payloadcms/db-sqlite'

const TOKENIZE = `"porter unicode61 remove_diacritics 2 tokenchars '_'"`
const RANK = 'bm25(3.0, 1.0)'
const EARLIER_TOKENIZE = `'porter unicode61 remove_diacritics 2'`

type Db = MigrateUpArgs['db']

async function rebuildTextIndex(db: Db, tokenize: string): Promise<void> {
  const rows = await db.all<{ sql: string }>(sql`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'raw_content_fts'`)
  if (rows[0]?.sql.includes(`tokenize = ${tokenize}`)) return
  await db.run(sql.raw('DROP TABLE IF EXISTS raw_content_fts'))
  await db.run(sql.raw(`CREATE VIRTUAL TABLE raw_content_fts USING fts5(title, description, tokenize = ${tokenize})`))
  await db.run(sql.raw(`INSERT INTO raw_content_fts(rowid, title, description) SELECT rowid, title, coalesce(description, '') FROM content`))
}

export async function up({ db }: MigrateUpArgs): Promise<void> {
  await rebuildTextIndex(db, TOKENIZE)
  await db.run(sql`INSERT INTO raw_content_fts(raw_content_fts, rank) VALUES ('rank', ${RANK})`)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await rebuildTextIndex(db, EARLIER_TOKENIZE)
  await db.run(sql`DELETE FROM raw_content_fts_config WHERE k = 'rank'`)
}
