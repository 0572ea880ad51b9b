/**
 * Two content generations: `content` moves only when a write touches a row the public sees
 * (approved and active, before or after the write), `all_content` on every content write.
 * Public answers key on the first, moderators' views on the second, so a pending submission,
 * its rejection or an edit of a pending item leaves every public cache as it is. Frozen here.
 */
import { MigrateDownArgs, MigrateUpArgs, sql } from '@payloadcms/db-sqlite'

const bump = (name: string) => `UPDATE raw_versions SET n = n + 1 WHERE name = '${name}';`
const isPublic = (row: 'new' | 'old') => `${row}.status = 'approved' AND ${row}.is_active = 1`

const TRIGGERS: [name: string, event: string, when: string | null, domain: string][] = [
  ['raw_version_content_insert', 'INSERT', null, 'all_content'],
  ['raw_version_content_update', 'UPDATE', null, 'all_content'],
  ['raw_version_content_delete', 'DELETE', null, 'all_content'],
  ['raw_version_content_insert_public', 'INSERT', isPublic('new'), 'content'],
  ['raw_version_content_update_public', 'UPDATE', `(${isPublic('old')}) OR (${isPublic('new')})`, 'content'],
  ['raw_version_content_delete_public', 'DELETE', isPublic('old'), 'content'],
]

export async function up({ db }: MigrateUpArgs): Promise<void> {
  // Counters start at the clock, so a re-created row never repeats a version seen before.
  await db.run(sql`INSERT OR IGNORE INTO raw_versions (name, n) VALUES ('all_content', ${Date.now()})`)
  for (const [name] of TRIGGERS) await db.run(sql.raw(`DROP TRIGGER IF EXISTS ${name}`))
  for (const [name, event, when, domain] of TRIGGERS) {
    await db.run(sql.raw(`CREATE TRIGGER ${name} AFTER ${event} ON content ${when ? `WHEN ${when} ` : ''}BEGIN ${bump(domain)} END`))
  }
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  for (const [name] of TRIGGERS) await db.run(sql.raw(`DROP TRIGGER IF EXISTS ${name}`))
  for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
    await db.run(sql.raw(`CREATE TRIGGER raw_version_content_${event.toLowerCase()} AFTER ${event} ON content BEGIN ${bump('content')} END`))
  }
  await db.run(sql`DELETE FROM raw_versions WHERE name = 'all_content'`)
}
