/**
 * Writes are authorised by the caller's user record now (src/auth/currentStanding.ts): the
 * `password_changed_at` column (a token issued before it may not write), and the `access`
 * generation, moved by every write to users and roles in any process, which the standings each
 * process keeps are keyed on. Frozen here.
 */
import { MigrateDownArgs, MigrateUpArgs, sql } from '@payloadcms/db-sqlite'

/** A user's roles live in users_rels, a role's permissions in roles_permissions: a write may touch only those. */
const TABLES = ['users', 'users_rels', 'roles', 'roles_permissions']
const EVENTS = ['insert', 'update', 'delete']

export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.run(sql`ALTER TABLE \`users\` ADD \`password_changed_at\` text;`)
  // Counters start at the clock, so a re-created row never repeats a version seen before.
  await db.run(sql`INSERT OR IGNORE INTO raw_versions (name, n) VALUES ('access', ${Date.now()})`)
  for (const table of TABLES) {
    for (const event of EVENTS) {
      await db.run(sql.raw(`DROP TRIGGER IF EXISTS raw_version_${table}_${event}`))
      await db.run(
        sql.raw(`CREATE TRIGGER raw_version_${table}_${event} AFTER ${event.toUpperCase()} ON ${table} BEGIN UPDATE raw_versions SET n = n + 1 WHERE name = 'access'; END`),
      )
    }
  }
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  for (const table of TABLES) for (const event of EVENTS) await db.run(sql.raw(`DROP TRIGGER IF EXISTS raw_version_${table}_${event}`))
  await db.run(sql`DELETE FROM raw_versions WHERE name = 'access'`)
  await db.run(sql`ALTER TABLE \`users\` DROP COLUMN \`password_changed_at\`;`)
}
