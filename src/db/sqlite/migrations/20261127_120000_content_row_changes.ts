/**
 * Row marks and the public generation by shape (src/db/freshness/versionDomains, src/db/freshness/generations).
 * A record of every content row written (raw_content_row_changes: its id after each insert,
 * update and delete; NULL for "every row", written by a bulk load), which each process reads
 * when `all_content` moves, so a cached page or item is read again once a row it shows changed.
 * And `content`, the public generation, moves on an update of a public row only when the update
 * changes what lists filter, sort or rank by (CONTENT_SHAPE_FIELDS' columns, compared here):
 * a thumbnail linked by an approval's follow-up, a slug renamed, leave every other public
 * answer cached. A sequence orders the record; every thousandth entry drops those 20,000
 * behind it (a process that fell further behind reads every row as changed). Frozen here.
 */
import { MigrateDownArgs, MigrateUpArgs, sql } from '@payloadcms/db-sqlite'

const KEPT = 20_000
const PRUNE_EVERY = 1_000
const SHAPE_COLUMNS = ['status', 'is_active', 'approved_at', 'title', 'description', 'tag_slugs', 'group_id', 'channel_id', 'platform_id', 'submitted_by_id', 'created_at', 'url_key']

const isPublic = (row: 'new' | 'old') => `${row}.status = 'approved' AND ${row}.is_active = 1`
const bumpContent = "UPDATE raw_versions SET n = n + 1 WHERE name = 'content';"

const OBJECTS = [
  'CREATE TABLE IF NOT EXISTS raw_content_row_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT)',
  `CREATE TRIGGER IF NOT EXISTS raw_content_rc_ai AFTER INSERT ON content BEGIN
     INSERT INTO raw_content_row_changes(id) VALUES (new.id);
   END`,
  `CREATE TRIGGER IF NOT EXISTS raw_content_rc_au AFTER UPDATE ON content BEGIN
     INSERT INTO raw_content_row_changes(id) VALUES (new.id);
     INSERT INTO raw_content_row_changes(id) SELECT old.id WHERE old.id IS NOT new.id;
   END`,
  `CREATE TRIGGER IF NOT EXISTS raw_content_rc_ad AFTER DELETE ON content BEGIN
     INSERT INTO raw_content_row_changes(id) VALUES (old.id);
   END`,
  `CREATE TRIGGER IF NOT EXISTS raw_content_rc_prune AFTER INSERT ON raw_content_row_changes WHEN new.seq % ${PRUNE_EVERY} = 0 BEGIN
     DELETE FROM raw_content_row_changes WHERE seq <= new.seq - ${KEPT};
   END`,
  // Processes that read no entry yet start from "every row".
  'INSERT INTO raw_content_row_changes(id) VALUES (NULL)',
  'DROP TRIGGER IF EXISTS raw_version_content_update_public',
  `CREATE TRIGGER raw_version_content_update_public AFTER UPDATE ON content
     WHEN ((${isPublic('old')}) OR (${isPublic('new')})) AND (${SHAPE_COLUMNS.map((c) => `old.${c} IS NOT new.${c}`).join(' OR ')})
   BEGIN ${bumpContent} END`,
]

export async function up({ db }: MigrateUpArgs): Promise<void> {
  for (const statement of OBJECTS) await db.run(sql.raw(statement))
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  for (const name of ['raw_content_rc_ai', 'raw_content_rc_au', 'raw_content_rc_ad', 'raw_content_rc_prune']) await db.run(sql.raw(`DROP TRIGGER IF EXISTS ${name}`))
  await db.run(sql.raw('DROP TABLE IF EXISTS raw_content_row_changes'))
  await db.run(sql.raw('DROP TRIGGER IF EXISTS raw_version_content_update_public'))
  await db.run(
    sql.raw(`CREATE TRIGGER raw_version_content_update_public AFTER UPDATE ON content WHEN (${isPublic('old')}) OR (${isPublic('new')}) BEGIN ${bumpContent} END`),
  )
}
