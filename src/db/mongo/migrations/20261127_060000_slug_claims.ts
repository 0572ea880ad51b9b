/**
 * Slugs global across tags, content and surfaces (the spec): Payload's `slug-claims`
 * collection (one document per held slug, unique `slug`) filled from the existing documents.
 * Earlier databases may hold a slug twice across those collections; the start does not fail on
 * that: each collision is resolved and reported (`migrations.slug_collisions` at warn), as on
 * SQLite. Surfaces claim first, then tags, then content: an item whose slug a surface or tag
 * holds takes the next free `<slug>-2`, `-3`, …; a tag whose slug a surface holds keeps it
 * unclaimed until an editor renames it. Idempotent (a holder already claimed is skipped), so the
 * migration runs again whole if it fails half-way; no session (index builds cannot run in one).
 * Frozen here: later rules need a migration of their own.
 */
import type { MigrateDownArgs, MigrateUpArgs } from '@payloadcms/db-mongodb'
import { type AnyBulkWriteOperation, ObjectId } from 'mongodb'

import { collectionName, nativeDb } from '../native'

type Claim = { _id: ObjectId; slug: string; entity: 'content' | 'tag' | 'surface'; owner: string }
type Holder = { _id: ObjectId; slug: string }
type Collision = { slug: string; kept: string; entity: string; id: string; resolution: string }

const SLUG_MAX = 64
const BATCH = 1000

export async function up({ payload }: MigrateUpArgs): Promise<void> {
  const db = nativeDb(payload)
  const claims = db.collection<Claim>(collectionName(payload, 'slug-claims'))
  const of = (slug: string) => db.collection<Holder>(collectionName(payload, slug))
  await claims.createIndex({ slug: 1 }, { unique: true })
  await claims.createIndex({ owner: 1 })
  const collisions: Collision[] = []
  // Slugs held so far, and the owners already claimed (a run again skips them).
  const held = new Map<string, string>()
  const claimed = new Set<string>()
  for await (const c of claims.find({}, { projection: { slug: 1, entity: 1, owner: 1 } })) {
    held.set(c.slug, c.entity)
    claimed.add(`${c.entity}:${c.owner}`)
  }
  const pending: Claim[] = []
  const flush = async () => {
    if (pending.length > 0) await claims.insertMany(pending.splice(0), { ordered: true })
  }
  const claim = async (entity: Claim['entity'], doc: Holder) => {
    held.set(doc.slug, entity)
    pending.push({ _id: new ObjectId(), slug: doc.slug, entity, owner: doc._id.toHexString() })
    if (pending.length >= BATCH) await flush()
  }
  for (const [slug, entity] of [['surfaces', 'surface'], ['tags', 'tag']] as const) {
    for await (const doc of of(slug).find({}, { projection: { slug: 1 } })) {
      if (claimed.has(`${entity}:${doc._id.toHexString()}`)) continue
      const kept = held.get(doc.slug)
      if (kept) collisions.push({ slug: doc.slug, kept, entity, id: doc._id.toHexString(), resolution: 'left unclaimed: rename the tag' })
      else await claim(entity, doc)
    }
  }
  const content = of('content')
  const renames: AnyBulkWriteOperation<Holder>[] = []
  for await (const item of content.find({}, { projection: { slug: 1 } })) {
    if (claimed.has(`content:${item._id.toHexString()}`)) continue
    const kept = held.get(item.slug)
    if (kept) {
      let renamed = item.slug
      for (let n = 2; held.has(renamed) || (await content.countDocuments({ slug: renamed }, { limit: 1 })) > 0; n++) {
        const suffix = `-${n}`
        renamed = `${item.slug.slice(0, SLUG_MAX - suffix.length).replace(/-+$/, '')}${suffix}`
      }
      renames.push({ updateOne: { filter: { _id: item._id }, update: { $set: { slug: renamed } } } })
      collisions.push({ slug: item.slug, kept, entity: 'content', id: item._id.toHexString(), resolution: `renamed to ${renamed}` })
      await claim('content', { _id: item._id, slug: renamed })
    } else await claim('content', item)
  }
  if (renames.length > 0) await content.bulkWrite(renames)
  await flush()
  if (collisions.length > 0) payload.logger.warn({ collisions }, 'migrations.slug_collisions')
}

export async function down({ payload }: MigrateDownArgs): Promise<void> {
  await nativeDb(payload).collection(collectionName(payload, 'slug-claims')).deleteMany({})
}
