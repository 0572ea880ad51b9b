/**
 * The console's last editor of each document it edits (collections/editGuard.ts: `editedBy`, a
 * user id as text), named when a stale save is refused. Frozen here.
 */
import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.run(sql`ALTER TABLE \`facets\` ADD \`edited_by\` text;`)
  await db.run(sql`ALTER TABLE \`media\` ADD \`edited_by\` text;`)
  await db.run(sql`ALTER TABLE \`surfaces\` ADD \`edited_by\` text;`)
  await db.run(sql`ALTER TABLE \`groups\` ADD \`edited_by\` text;`)
  await db.run(sql`ALTER TABLE \`channels\` ADD \`edited_by\` text;`)
  await db.run(sql`ALTER TABLE \`platforms\` ADD \`edited_by\` text;`)
  await db.run(sql`ALTER TABLE \`tags\` ADD \`edited_by\` text;`)
  await db.run(sql`ALTER TABLE \`content\` ADD \`edited_by\` text;`)
  await db.run(sql`ALTER TABLE \`branding\` ADD \`edited_by\` text;`)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.run(sql`ALTER TABLE \`facets\` DROP COLUMN \`edited_by\`;`)
  await db.run(sql`ALTER TABLE \`media\` DROP COLUMN \`edited_by\`;`)
  await db.run(sql`ALTER TABLE \`surfaces\` DROP COLUMN \`edited_by\`;`)
  await db.run(sql`ALTER TABLE \`groups\` DROP COLUMN \`edited_by\`;`)
  await db.run(sql`ALTER TABLE \`channels\` DROP COLUMN \`edited_by\`;`)
  await db.run(sql`ALTER TABLE \`platforms\` DROP COLUMN \`edited_by\`;`)
  await db.run(sql`ALTER TABLE \`tags\` DROP COLUMN \`edited_by\`;`)
  await db.run(sql`ALTER TABLE \`content\` DROP COLUMN \`edited_by\`;`)
  await db.run(sql`ALTER TABLE \`branding\` DROP COLUMN \`edited_by\`;`)
}
