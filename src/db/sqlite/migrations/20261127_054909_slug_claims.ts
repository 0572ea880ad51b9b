/**
 * Slugs global across tags, content and surfaces (the spec): the `slug_claims` table, one row
 * per held slug under a unique index, filled from the existing rows. Earlier databases may hold
 * a slug twice across those tables; the start does not fail on that: each collision is resolved
 * and reported (`migrations.slug_collisions` at warn). Surfaces claim first, then tags, then
 * content: an item whose slug a surface or tag holds takes the next free `<slug>-2`, `-3`, …
 * (content slugs are the item's address, but the taxonomy's are addressed by every item and
 * every client's navigation); a tag whose slug a surface holds keeps it unclaimed until an
 * editor renames it (a tag rename carries every item along; a migration does not guess one).
 * Frozen here: later rules need a migration of their own.
 */
import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

type Db = MigrateUpArgs['db']
type Collision = { slug: string; kept: string; entity: string; id: string; resolution: string }

const NEW_ID = sql.raw('lower(hex(randomblob(12)))')
const SLUG_MAX = 64

/** The first `<base>-<n>` (n ≥ 2, within 64 characters) that no content item and no claim holds. */
async function freeSlug(db: Db, slug: string): Promise<string> {
  for (let n = 2; ; n++) {
    const suffix = `-${n}`
    const candidate = `${slug.slice(0, SLUG_MAX - suffix.length).replace(/-+$/, '')}${suffix}`
    const held = await db.all(sql`SELECT 1 FROM content WHERE slug = ${candidate} UNION ALL SELECT 1 FROM slug_claims WHERE slug = ${candidate} LIMIT 1`)
    if (held.length === 0) return candidate
  }
}

async function claimExisting(db: Db): Promise<Collision[]> {
  const collisions: Collision[] = []
  await db.run(sql`INSERT INTO slug_claims (id, slug, entity, owner) SELECT ${NEW_ID}, slug, 'surface', id FROM surfaces`)
  const tagsOnSurfaces = await db.all<{ id: string; slug: string }>(sql`SELECT t.id, t.slug FROM tags t JOIN slug_claims c ON c.slug = t.slug`)
  for (const t of tagsOnSurfaces) collisions.push({ slug: t.slug, kept: 'surface', entity: 'tag', id: t.id, resolution: 'left unclaimed: rename the tag' })
  await db.run(sql`INSERT OR IGNORE INTO slug_claims (id, slug, entity, owner) SELECT ${NEW_ID}, slug, 'tag', id FROM tags`)
  const items = await db.all<{ id: string; slug: string; entity: string }>(sql`SELECT c.id, c.slug, k.entity FROM content c JOIN slug_claims k ON k.slug = c.slug`)
  for (const item of items) {
    const renamed = await freeSlug(db, item.slug)
    await db.run(sql`UPDATE content SET slug = ${renamed} WHERE id = ${item.id}`)
    collisions.push({ slug: item.slug, kept: item.entity, entity: 'content', id: item.id, resolution: `renamed to ${renamed}` })
  }
  await db.run(sql`INSERT INTO slug_claims (id, slug, entity, owner) SELECT ${NEW_ID}, slug, 'content', id FROM content`)
  return collisions
}

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(sql`CREATE TABLE \`slug_claims\` (
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`slug\` text NOT NULL,
  	\`entity\` text NOT NULL,
  	\`owner\` text NOT NULL
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`slug_claims_slug_idx\` ON \`slug_claims\` (\`slug\`);`)
  await db.run(sql`CREATE INDEX \`slug_claims_owner_idx\` ON \`slug_claims\` (\`owner\`);`)
  await db.run(sql`ALTER TABLE \`payload_locked_documents_rels\` ADD \`slug_claims_id\` text REFERENCES slug_claims(id);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_slug_claims_id_idx\` ON \`payload_locked_documents_rels\` (\`slug_claims_id\`);`)
  const collisions = await claimExisting(db)
  if (collisions.length > 0) payload.logger.warn({ collisions }, 'migrations.slug_collisions')
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`DROP TABLE \`slug_claims\`;`)
  await db.run(sql`PRAGMA foreign_keys=OFF;`)
  await db.run(sql`CREATE TABLE \`__new_payload_locked_documents_rels\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`order\` integer,
  	\`parent_id\` integer NOT NULL,
  	\`path\` text NOT NULL,
  	\`users_id\` text,
  	\`roles_id\` text,
  	\`refresh_tokens_id\` text,
  	\`facets_id\` text,
  	\`media_id\` text,
  	\`surfaces_id\` text,
  	\`groups_id\` text,
  	\`channels_id\` text,
  	\`platforms_id\` text,
  	\`tags_id\` text,
  	\`content_id\` text,
  	\`notifications_id\` text,
  	\`tag_renames_id\` text,
  	\`moderation_events_id\` text,
  	FOREIGN KEY (\`parent_id\`) REFERENCES \`payload_locked_documents\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`users_id\`) REFERENCES \`users\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`roles_id\`) REFERENCES \`roles\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`refresh_tokens_id\`) REFERENCES \`refresh_tokens\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`facets_id\`) REFERENCES \`facets\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`media_id\`) REFERENCES \`media\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`surfaces_id\`) REFERENCES \`surfaces\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`groups_id\`) REFERENCES \`groups\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`channels_id\`) REFERENCES \`channels\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`platforms_id\`) REFERENCES \`platforms\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`tags_id\`) REFERENCES \`tags\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`content_id\`) REFERENCES \`content\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`notifications_id\`) REFERENCES \`notifications\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`tag_renames_id\`) REFERENCES \`tag_renames\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`moderation_events_id\`) REFERENCES \`moderation_events\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`INSERT INTO \`__new_payload_locked_documents_rels\`("id", "order", "parent_id", "path", "users_id", "roles_id", "refresh_tokens_id", "facets_id", "media_id", "surfaces_id", "groups_id", "channels_id", "platforms_id", "tags_id", "content_id", "notifications_id", "tag_renames_id", "moderation_events_id") SELECT "id", "order", "parent_id", "path", "users_id", "roles_id", "refresh_tokens_id", "facets_id", "media_id", "surfaces_id", "groups_id", "channels_id", "platforms_id", "tags_id", "content_id", "notifications_id", "tag_renames_id", "moderation_events_id" FROM \`payload_locked_documents_rels\`;`)
  await db.run(sql`DROP TABLE \`payload_locked_documents_rels\`;`)
  await db.run(sql`ALTER TABLE \`__new_payload_locked_documents_rels\` RENAME TO \`payload_locked_documents_rels\`;`)
  await db.run(sql`PRAGMA foreign_keys=ON;`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_order_idx\` ON \`payload_locked_documents_rels\` (\`order\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_parent_idx\` ON \`payload_locked_documents_rels\` (\`parent_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_path_idx\` ON \`payload_locked_documents_rels\` (\`path\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_users_id_idx\` ON \`payload_locked_documents_rels\` (\`users_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_roles_id_idx\` ON \`payload_locked_documents_rels\` (\`roles_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_refresh_tokens_id_idx\` ON \`payload_locked_documents_rels\` (\`refresh_tokens_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_facets_id_idx\` ON \`payload_locked_documents_rels\` (\`facets_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_media_id_idx\` ON \`payload_locked_documents_rels\` (\`media_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_surfaces_id_idx\` ON \`payload_locked_documents_rels\` (\`surfaces_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_groups_id_idx\` ON \`payload_locked_documents_rels\` (\`groups_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_channels_id_idx\` ON \`payload_locked_documents_rels\` (\`channels_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_platforms_id_idx\` ON \`payload_locked_documents_rels\` (\`platforms_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_tags_id_idx\` ON \`payload_locked_documents_rels\` (\`tags_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_content_id_idx\` ON \`payload_locked_documents_rels\` (\`content_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_notifications_id_idx\` ON \`payload_locked_documents_rels\` (\`notifications_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_tag_renames_id_idx\` ON \`payload_locked_documents_rels\` (\`tag_renames_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_rels_moderation_events_id_idx\` ON \`payload_locked_documents_rels\` (\`moderation_events_id\`);`)
}
