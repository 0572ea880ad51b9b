import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(sql`CREATE TABLE \`users_sessions\` (
  	\`_order\` integer NOT NULL,
  	\`_parent_id\` text NOT NULL,
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`created_at\` text,
  	\`expires_at\` text NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`users\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE INDEX \`users_sessions_order_idx\` ON \`users_sessions\` (\`_order\`);`)
  await db.run(sql`CREATE INDEX \`users_sessions_parent_id_idx\` ON \`users_sessions\` (\`_parent_id\`);`)
  await db.run(sql`CREATE TABLE \`users\` (
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`username\` text NOT NULL,
  	\`is_active\` integer DEFAULT true,
  	\`password_hash\` text,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`email\` text NOT NULL,
  	\`reset_password_token\` text,
  	\`reset_password_expiration\` text,
  	\`salt\` text,
  	\`hash\` text,
  	\`reset_password_requested_at\` text
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`users_username_idx\` ON \`users\` (\`username\`);`)
  await db.run(sql`CREATE INDEX \`users_is_active_idx\` ON \`users\` (\`is_active\`);`)
  await db.run(sql`CREATE INDEX \`users_updated_at_idx\` ON \`users\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`users_created_at_idx\` ON \`users\` (\`created_at\`);`)
  await db.run(sql`CREATE UNIQUE INDEX \`users_email_idx\` ON \`users\` (\`email\`);`)
  await db.run(sql`CREATE TABLE \`users_rels\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`order\` integer,
  	\`parent_id\` text NOT NULL,
  	\`path\` text NOT NULL,
  	\`roles_id\` text,
  	FOREIGN KEY (\`parent_id\`) REFERENCES \`users\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`roles_id\`) REFERENCES \`roles\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE INDEX \`users_rels_order_idx\` ON \`users_rels\` (\`order\`);`)
  await db.run(sql`CREATE INDEX \`users_rels_parent_idx\` ON \`users_rels\` (\`parent_id\`);`)
  await db.run(sql`CREATE INDEX \`users_rels_path_idx\` ON \`users_rels\` (\`path\`);`)
  await db.run(sql`CREATE INDEX \`users_rels_roles_id_idx\` ON \`users_rels\` (\`roles_id\`);`)
  await db.run(sql`CREATE TABLE \`roles_permissions\` (
  	\`order\` integer NOT NULL,
  	\`parent_id\` text NOT NULL,
  	\`value\` text,
  	\`id\` integer PRIMARY KEY NOT NULL,
  	FOREIGN KEY (\`parent_id\`) REFERENCES \`roles\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE INDEX \`roles_permissions_order_idx\` ON \`roles_permissions\` (\`order\`);`)
  await db.run(sql`CREATE INDEX \`roles_permissions_parent_idx\` ON \`roles_permissions\` (\`parent_id\`);`)
  await db.run(sql`CREATE TABLE \`roles\` (
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`name\` text NOT NULL,
  	\`description\` text,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`roles_name_idx\` ON \`roles\` (\`name\`);`)
  await db.run(sql`CREATE INDEX \`roles_updated_at_idx\` ON \`roles\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`roles_created_at_idx\` ON \`roles\` (\`created_at\`);`)
  await db.run(sql`CREATE TABLE \`refresh_tokens\` (
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`user_id\` text NOT NULL,
  	\`family_id\` text NOT NULL,
  	\`token_hash\` text NOT NULL,
  	\`expires_at\` text NOT NULL,
  	\`revoked_at\` text,
  	\`revoked_reason\` text,
  	\`grace_token\` text,
  	\`grace_until\` text,
  	\`created_user_agent\` text,
  	\`created_ip\` text,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
  );
  `)
  await db.run(sql`CREATE INDEX \`refresh_tokens_user_id_idx\` ON \`refresh_tokens\` (\`user_id\`);`)
  await db.run(sql`CREATE INDEX \`refresh_tokens_family_id_idx\` ON \`refresh_tokens\` (\`family_id\`);`)
  await db.run(sql`CREATE UNIQUE INDEX \`refresh_tokens_token_hash_idx\` ON \`refresh_tokens\` (\`token_hash\`);`)
  await db.run(sql`CREATE INDEX \`refresh_tokens_revoked_at_idx\` ON \`refresh_tokens\` (\`revoked_at\`);`)
  await db.run(sql`CREATE INDEX \`refresh_tokens_updated_at_idx\` ON \`refresh_tokens\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`refresh_tokens_created_at_idx\` ON \`refresh_tokens\` (\`created_at\`);`)
  await db.run(sql`CREATE TABLE \`facets\` (
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`key\` text NOT NULL,
  	\`label\` text NOT NULL,
  	\`color\` text DEFAULT '#6b7280' NOT NULL,
  	\`display_order\` numeric DEFAULT 0,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`facets_key_idx\` ON \`facets\` (\`key\`);`)
  await db.run(sql`CREATE INDEX \`facets_updated_at_idx\` ON \`facets\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`facets_created_at_idx\` ON \`facets\` (\`created_at\`);`)
  await db.run(sql`CREATE TABLE \`media\` (
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`alt\` text,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`url\` text,
  	\`thumbnail_u_r_l\` text,
  	\`filename\` text,
  	\`mime_type\` text,
  	\`filesize\` numeric,
  	\`width\` numeric,
  	\`height\` numeric,
  	\`focal_x\` numeric,
  	\`focal_y\` numeric
  );
  `)
  await db.run(sql`CREATE INDEX \`media_updated_at_idx\` ON \`media\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`media_created_at_idx\` ON \`media\` (\`created_at\`);`)
  await db.run(sql`CREATE UNIQUE INDEX \`media_filename_idx\` ON \`media\` (\`filename\`);`)
  await db.run(sql`CREATE TABLE \`surfaces\` (
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`slug\` text NOT NULL,
  	\`label\` text NOT NULL,
  	\`route_prefix\` text NOT NULL,
  	\`browse_mode\` text DEFAULT 'grid' NOT NULL,
  	\`accent_color\` text DEFAULT '#3b82f6' NOT NULL,
  	\`display_order\` numeric DEFAULT 0 NOT NULL,
  	\`is_active\` integer DEFAULT true,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`surfaces_slug_idx\` ON \`surfaces\` (\`slug\`);`)
  await db.run(sql`CREATE INDEX \`surfaces_updated_at_idx\` ON \`surfaces\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`surfaces_created_at_idx\` ON \`surfaces\` (\`created_at\`);`)
  await db.run(sql`CREATE TABLE \`groups\` (
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`surface_id\` text NOT NULL,
  	\`slug\` text NOT NULL,
  	\`label\` text NOT NULL,
  	\`color\` text DEFAULT '#6b7280' NOT NULL,
  	\`display_order\` numeric DEFAULT 0 NOT NULL,
  	\`is_active\` integer DEFAULT true,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	FOREIGN KEY (\`surface_id\`) REFERENCES \`surfaces\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(sql`CREATE INDEX \`groups_surface_idx\` ON \`groups\` (\`surface_id\`);`)
  await db.run(sql`CREATE INDEX \`groups_slug_idx\` ON \`groups\` (\`slug\`);`)
  await db.run(sql`CREATE INDEX \`groups_updated_at_idx\` ON \`groups\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`groups_created_at_idx\` ON \`groups\` (\`created_at\`);`)
  await db.run(sql`CREATE UNIQUE INDEX \`surface_slug_idx\` ON \`groups\` (\`surface_id\`,\`slug\`);`)
  await db.run(sql`CREATE TABLE \`channels\` (
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`group_id\` text NOT NULL,
  	\`slug\` text NOT NULL,
  	\`label\` text NOT NULL,
  	\`display_order\` numeric DEFAULT 0 NOT NULL,
  	\`is_active\` integer DEFAULT true,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	FOREIGN KEY (\`group_id\`) REFERENCES \`groups\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(sql`CREATE INDEX \`channels_group_idx\` ON \`channels\` (\`group_id\`);`)
  await db.run(sql`CREATE INDEX \`channels_slug_idx\` ON \`channels\` (\`slug\`);`)
  await db.run(sql`CREATE INDEX \`channels_updated_at_idx\` ON \`channels\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`channels_created_at_idx\` ON \`channels\` (\`created_at\`);`)
  await db.run(sql`CREATE UNIQUE INDEX \`group_slug_idx\` ON \`channels\` (\`group_id\`,\`slug\`);`)
  await db.run(sql`CREATE TABLE \`platforms\` (
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`slug\` text NOT NULL,
  	\`label\` text NOT NULL,
  	\`color\` text DEFAULT '#6b7280' NOT NULL,
  	\`display_order\` numeric DEFAULT 0 NOT NULL,
  	\`is_active\` integer DEFAULT true,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`platforms_slug_idx\` ON \`platforms\` (\`slug\`);`)
  await db.run(sql`CREATE INDEX \`platforms_updated_at_idx\` ON \`platforms\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`platforms_created_at_idx\` ON \`platforms\` (\`created_at\`);`)
  await db.run(sql`CREATE TABLE \`tags\` (
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`slug\` text NOT NULL,
  	\`label\` text NOT NULL,
  	\`facet_id\` text NOT NULL,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	FOREIGN KEY (\`facet_id\`) REFERENCES \`facets\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`tags_slug_idx\` ON \`tags\` (\`slug\`);`)
  await db.run(sql`CREATE INDEX \`tags_label_idx\` ON \`tags\` (\`label\`);`)
  await db.run(sql`CREATE INDEX \`tags_facet_idx\` ON \`tags\` (\`facet_id\`);`)
  await db.run(sql`CREATE INDEX \`tags_updated_at_idx\` ON \`tags\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`tags_created_at_idx\` ON \`tags\` (\`created_at\`);`)
  await db.run(sql`CREATE TABLE \`content\` (
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`slug\` text NOT NULL,
  	\`title\` text NOT NULL,
  	\`description\` text,
  	\`url\` text NOT NULL,
  	\`url_key\` text,
  	\`url_key_ordinal\` numeric DEFAULT 0,
  	\`tag_slugs\` text DEFAULT '[]',
  	\`group_id\` text,
  	\`channel_id\` text,
  	\`platform_id\` text,
  	\`status\` text DEFAULT 'pending' NOT NULL,
  	\`is_active\` integer DEFAULT true,
  	\`submitted_by_id\` text,
  	\`approved_at\` text,
  	\`rejection_reason\` text,
  	\`thumbnail_id\` text,
  	\`thumbnail_url\` text,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	FOREIGN KEY (\`group_id\`) REFERENCES \`groups\`(\`id\`) ON UPDATE no action ON DELETE set null,
  	FOREIGN KEY (\`channel_id\`) REFERENCES \`channels\`(\`id\`) ON UPDATE no action ON DELETE set null,
  	FOREIGN KEY (\`platform_id\`) REFERENCES \`platforms\`(\`id\`) ON UPDATE no action ON DELETE set null,
  	FOREIGN KEY (\`submitted_by_id\`) REFERENCES \`users\`(\`id\`) ON UPDATE no action ON DELETE set null,
  	FOREIGN KEY (\`thumbnail_id\`) REFERENCES \`media\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`content_slug_idx\` ON \`content\` (\`slug\`);`)
  await db.run(sql`CREATE INDEX \`content_group_idx\` ON \`content\` (\`group_id\`);`)
  await db.run(sql`CREATE INDEX \`content_channel_idx\` ON \`content\` (\`channel_id\`);`)
  await db.run(sql`CREATE INDEX \`content_platform_idx\` ON \`content\` (\`platform_id\`);`)
  await db.run(sql`CREATE INDEX \`content_submitted_by_idx\` ON \`content\` (\`submitted_by_id\`);`)
  await db.run(sql`CREATE INDEX \`content_thumbnail_idx\` ON \`content\` (\`thumbnail_id\`);`)
  await db.run(sql`CREATE INDEX \`content_updated_at_idx\` ON \`content\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`content_created_at_idx\` ON \`content\` (\`created_at\`);`)
  await db.run(sql`CREATE TABLE \`notifications\` (
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`user_id\` text NOT NULL,
  	\`kind\` text NOT NULL,
  	\`content_id\` text NOT NULL,
  	\`message\` text NOT NULL,
  	\`read_at\` text,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	FOREIGN KEY (\`user_id\`) REFERENCES \`users\`(\`id\`) ON UPDATE no action ON DELETE set null,
  	FOREIGN KEY (\`content_id\`) REFERENCES \`content\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(sql`CREATE INDEX \`notifications_user_idx\` ON \`notifications\` (\`user_id\`);`)
  await db.run(sql`CREATE INDEX \`notifications_content_idx\` ON \`notifications\` (\`content_id\`);`)
  await db.run(sql`CREATE INDEX \`notifications_updated_at_idx\` ON \`notifications\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`notifications_created_at_idx\` ON \`notifications\` (\`created_at\`);`)
  await db.run(sql`CREATE UNIQUE INDEX \`content_kind_idx\` ON \`notifications\` (\`content_id\`,\`kind\`);`)
  await db.run(sql`CREATE TABLE \`tag_renames\` (
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`actor_id\` text,
  	\`old_slug\` text NOT NULL,
  	\`new_slug\` text NOT NULL,
  	\`content_count\` numeric NOT NULL,
  	\`at\` text NOT NULL,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	FOREIGN KEY (\`actor_id\`) REFERENCES \`users\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(sql`CREATE INDEX \`tag_renames_actor_idx\` ON \`tag_renames\` (\`actor_id\`);`)
  await db.run(sql`CREATE INDEX \`tag_renames_old_slug_idx\` ON \`tag_renames\` (\`old_slug\`);`)
  await db.run(sql`CREATE INDEX \`tag_renames_new_slug_idx\` ON \`tag_renames\` (\`new_slug\`);`)
  await db.run(sql`CREATE INDEX \`tag_renames_updated_at_idx\` ON \`tag_renames\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`tag_renames_created_at_idx\` ON \`tag_renames\` (\`created_at\`);`)
  await db.run(sql`CREATE TABLE \`moderation_events\` (
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`actor_id\` text,
  	\`action\` text NOT NULL,
  	\`target_collection\` text NOT NULL,
  	\`target_id\` text NOT NULL,
  	\`target_slug\` text NOT NULL,
  	\`state_before\` text,
  	\`state_after\` text,
  	\`reason\` text,
  	\`at\` text NOT NULL,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	FOREIGN KEY (\`actor_id\`) REFERENCES \`users\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(sql`CREATE INDEX \`moderation_events_actor_idx\` ON \`moderation_events\` (\`actor_id\`);`)
  await db.run(sql`CREATE INDEX \`moderation_events_action_idx\` ON \`moderation_events\` (\`action\`);`)
  await db.run(sql`CREATE INDEX \`moderation_events_target_id_idx\` ON \`moderation_events\` (\`target_id\`);`)
  await db.run(sql`CREATE INDEX \`moderation_events_target_slug_idx\` ON \`moderation_events\` (\`target_slug\`);`)
  await db.run(sql`CREATE INDEX \`moderation_events_at_idx\` ON \`moderation_events\` (\`at\`);`)
  await db.run(sql`CREATE INDEX \`moderation_events_updated_at_idx\` ON \`moderation_events\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`moderation_events_created_at_idx\` ON \`moderation_events\` (\`created_at\`);`)
  await db.run(sql`CREATE TABLE \`payload_kv\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`key\` text NOT NULL,
  	\`data\` text NOT NULL
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`payload_kv_key_idx\` ON \`payload_kv\` (\`key\`);`)
  await db.run(sql`CREATE TABLE \`payload_locked_documents\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`global_slug\` text,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
  );
  `)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_global_slug_idx\` ON \`payload_locked_documents\` (\`global_slug\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_updated_at_idx\` ON \`payload_locked_documents\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`payload_locked_documents_created_at_idx\` ON \`payload_locked_documents\` (\`created_at\`);`)
  await db.run(sql`CREATE TABLE \`payload_locked_documents_rels\` (
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
  await db.run(sql`CREATE TABLE \`payload_preferences\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`key\` text,
  	\`value\` text,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
  );
  `)
  await db.run(sql`CREATE INDEX \`payload_preferences_key_idx\` ON \`payload_preferences\` (\`key\`);`)
  await db.run(sql`CREATE INDEX \`payload_preferences_updated_at_idx\` ON \`payload_preferences\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`payload_preferences_created_at_idx\` ON \`payload_preferences\` (\`created_at\`);`)
  await db.run(sql`CREATE TABLE \`payload_preferences_rels\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`order\` integer,
  	\`parent_id\` integer NOT NULL,
  	\`path\` text NOT NULL,
  	\`users_id\` text,
  	FOREIGN KEY (\`parent_id\`) REFERENCES \`payload_preferences\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`users_id\`) REFERENCES \`users\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE INDEX \`payload_preferences_rels_order_idx\` ON \`payload_preferences_rels\` (\`order\`);`)
  await db.run(sql`CREATE INDEX \`payload_preferences_rels_parent_idx\` ON \`payload_preferences_rels\` (\`parent_id\`);`)
  await db.run(sql`CREATE INDEX \`payload_preferences_rels_path_idx\` ON \`payload_preferences_rels\` (\`path\`);`)
  await db.run(sql`CREATE INDEX \`payload_preferences_rels_users_id_idx\` ON \`payload_preferences_rels\` (\`users_id\`);`)
  await db.run(sql`CREATE TABLE \`payload_migrations\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`name\` text,
  	\`batch\` numeric,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
  );
  `)
  await db.run(sql`CREATE INDEX \`payload_migrations_updated_at_idx\` ON \`payload_migrations\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`payload_migrations_created_at_idx\` ON \`payload_migrations\` (\`created_at\`);`)
  await db.run(sql`CREATE TABLE \`branding\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`name\` text,
  	\`tagline\` text,
  	\`description\` text,
  	\`logo_id\` text,
  	\`logo_url\` text,
  	\`icon_id\` text,
  	\`icon_url\` text,
  	\`primary_color\` text,
  	\`public_url\` text,
  	\`submissions_open\` integer DEFAULT true,
  	\`updated_at\` text,
  	\`created_at\` text,
  	FOREIGN KEY (\`logo_id\`) REFERENCES \`media\`(\`id\`) ON UPDATE no action ON DELETE set null,
  	FOREIGN KEY (\`icon_id\`) REFERENCES \`media\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(sql`CREATE INDEX \`branding_logo_idx\` ON \`branding\` (\`logo_id\`);`)
  await db.run(sql`CREATE INDEX \`branding_icon_idx\` ON \`branding\` (\`icon_id\`);`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`DROP TABLE \`users_sessions\`;`)
  await db.run(sql`DROP TABLE \`users\`;`)
  await db.run(sql`DROP TABLE \`users_rels\`;`)
  await db.run(sql`DROP TABLE \`roles_permissions\`;`)
  await db.run(sql`DROP TABLE \`roles\`;`)
  await db.run(sql`DROP TABLE \`refresh_tokens\`;`)
  await db.run(sql`DROP TABLE \`facets\`;`)
  await db.run(sql`DROP TABLE \`media\`;`)
  await db.run(sql`DROP TABLE \`surfaces\`;`)
  await db.run(sql`DROP TABLE \`groups\`;`)
  await db.run(sql`DROP TABLE \`channels\`;`)
  await db.run(sql`DROP TABLE \`platforms\`;`)
  await db.run(sql`DROP TABLE \`tags\`;`)
  await db.run(sql`DROP TABLE \`content\`;`)
  await db.run(sql`DROP TABLE \`notifications\`;`)
  await db.run(sql`DROP TABLE \`tag_renames\`;`)
  await db.run(sql`DROP TABLE \`moderation_events\`;`)
  await db.run(sql`DROP TABLE \`payload_kv\`;`)
  await db.run(sql`DROP TABLE \`payload_locked_documents\`;`)
  await db.run(sql`DROP TABLE \`payload_locked_documents_rels\`;`)
  await db.run(sql`DROP TABLE \`payload_preferences\`;`)
  await db.run(sql`DROP TABLE \`payload_preferences_rels\`;`)
  await db.run(sql`DROP TABLE \`payload_migrations\`;`)
  await db.run(sql`DROP TABLE \`branding\`;`)
}
