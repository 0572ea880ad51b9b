/**
 * A large content load (the seed of a million items) on SQLite. Row by row, every insert
 * updates ~19 B-trees in random order, fires the text-index and tag triggers and bumps the
 * change counter; past the page cache that is disk-bound (docs/benchmarks.md, *Measurements behind the code*).
 * Instead, in ONE immediate transaction: the non-unique indexes and the two insert triggers
 * whose work is known (text index + tags, change counter) are dropped, the rows inserted,
 * that work done once in bulk for the new rows, and every dropped object re-created from
 * its saved SQL. Other connections see the database before or after, never between (they
 * read the old snapshot under WAL; writers wait for the lock, so run large loads with the
 * server stopped or quiet). A crash rolls all of it back. Unique indexes stay (they are
 * constraints, and url_key's serves the ordinal lookup); any other insert trigger stays and
 * fires per row, so nothing it maintains is skipped.
 */
import type { BulkProgress, NewContent } from '../contentTypes'
import { hexIdFactory } from '../ids'
import { contentInsertArgs, contentInsertSql } from './contentRows'
import { connection, withBulkCache } from './connection'
import { FTS_TABLE, HIDDEN_FTS_TABLE, PUBLIC_ROW } from './contentSchema'
import { TABLES } from './tables'

const CONTENT = TABLES.content
/** The insert triggers whose per-row work is done below for the whole load. */
const DEFERRED_TRIGGERS = ['raw_content_ai', 'raw_content_ai_public', 'raw_content_ai_hidden', `raw_version_${CONTENT}_insert`, `raw_version_${CONTENT}_insert_public`, 'raw_content_tc_ai', 'raw_content_rc_ai']

type SchemaObject = { name: string; sql: string }

export function bulkLoadContent(file: string, batches: Iterable<NewContent[]>, progress?: BulkProgress): number {
  return withBulkCache(file, () => {
    const db = connection(file)
    // Copies of a URL already present are numbered after it, as insertContent numbers them.
    const insert = db.prepare(contentInsertSql(CONTENT))
    const nextId = hexIdFactory()
    db.exec('BEGIN IMMEDIATE')
    try {
      const indexes = db
        .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%'`)
        .all(CONTENT) as SchemaObject[]
      const triggers = (
        db.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?`).all(CONTENT) as SchemaObject[]
      ).filter((t) => DEFERRED_TRIGGERS.includes(t.name))
      for (const t of triggers) db.exec(`DROP TRIGGER "${t.name}"`)
      for (const i of indexes) db.exec(`DROP INDEX "${i.name}"`)
      const firstRowid = Number((db.prepare(`SELECT coalesce(max(rowid), 0) FROM ${CONTENT}`).raw(true).get() as unknown[])[0]) + 1

      let done = 0
      for (const batch of batches) {
        for (const r of batch) {
          insert.run(...contentInsertArgs(r, r.id ?? nextId()))
        }
        done += batch.length
        progress?.rows(done)
      }

      // What the dropped triggers did per row, once for the new rows.
      const isDeferred = (name: string) => triggers.some((t) => t.name === name)
      if (isDeferred('raw_content_ai')) {
        progress?.step('text index')
        // Public rows to the public index, the others to the hidden one (./contentSchema).
        for (const [table, where] of [[FTS_TABLE, PUBLIC_ROW], [HIDDEN_FTS_TABLE, `NOT (${PUBLIC_ROW})`]] as const) {
          db.prepare(
            `INSERT INTO ${table}(rowid, title, description)
             SELECT rowid, title, coalesce(description, '') FROM ${CONTENT} c WHERE c.rowid >= ? AND ${where}`,
          ).run(firstRowid)
        }
        progress?.step('tag index')
        db.prepare(
          `INSERT OR IGNORE INTO raw_content_tags(tag, content_rowid)
           SELECT j.value, c.rowid FROM ${CONTENT} c, json_each(CASE WHEN json_valid(c.tag_slugs) THEN c.tag_slugs ELSE '[]' END) j
           WHERE c.rowid >= ? AND j.type = 'text'`,
        ).run(firstRowid)
      }
      // Each new item claims its slug (global across tags, content and surfaces): one that is held fails the load.
      progress?.step('slug claims')
      db.prepare(
        `INSERT INTO ${TABLES.slugClaims} (id, slug, entity, owner)
         SELECT lower(hex(randomblob(12))), slug, 'content', id FROM ${CONTENT} WHERE rowid >= ?`,
      ).run(firstRowid)
      // One entry for the search corpus instead of one per row: "everything changed, read it whole".
      if (isDeferred('raw_content_tc_ai') && done > 0) db.exec('INSERT INTO raw_content_text_changes(row) VALUES (-1)')
      if (isDeferred('raw_content_rc_ai') && done > 0) db.exec('INSERT INTO raw_content_row_changes(id) VALUES (NULL)')
      // One move of both content generations for the whole load (../versionDomains).
      if (isDeferred(`raw_version_${CONTENT}_insert`) && done > 0) {
        db.exec("UPDATE raw_versions SET n = n + 1 WHERE name IN ('content', 'all_content')")
      }
      progress?.step(`${indexes.length} indexes`)
      for (const i of indexes) db.exec(i.sql)
      for (const t of triggers) db.exec(t.sql)
      db.exec('COMMIT')
      if (done >= 1000) {
        // Merge the text index's segments and refresh the planner's statistics.
        progress?.step('text index merge')
        db.exec("INSERT INTO raw_content_fts(raw_content_fts) VALUES ('optimize')")
        progress?.step('statistics')
        db.exec('ANALYZE')
      }
      return done
    } catch (err) {
      if (db.inTransaction) db.exec('ROLLBACK')
      throw err
    }
  })
}
