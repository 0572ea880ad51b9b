/**
 * The content collection keeps each change's pre-image (`changeStreamPreAndPostImages`, MongoDB
 * 6.0+), which every process's change feed reads (src/db/mongo/changeFeed.ts): a change event
 * carries the names of the fields an update set, not whether the row was public before it, so an
 * edit, a rejection or a soft delete of a pending row moved the public's answers in every process
 * as if a public row had changed. With the row's status and isActive from before, a change to a
 * row hidden before and after moves only what moderators see, as SQLite's triggers decide it.
 * Pre-images live in the server's `config.system.preimages` and expire with the oplog. Idempotent;
 * no session (collMod cannot run in a transaction).
 */
import type { MigrateDownArgs, MigrateUpArgs } from '@payloadcms/db-mongodb'

import { serverCode } from '../driverErrors'
import { collectionName, nativeDb } from '../native'

const NAMESPACE_NOT_FOUND = 26
const NAMESPACE_EXISTS = 48

async function preImages(args: { payload: MigrateUpArgs['payload'] }, enabled: boolean): Promise<void> {
  const db = nativeDb(args.payload)
  const name = collectionName(args.payload, 'content')
  try {
    await db.command({ collMod: name, changeStreamPreAndPostImages: { enabled } })
  } catch (err) {
    if (serverCode(err) !== NAMESPACE_NOT_FOUND || !enabled) throw err
    // A database with no content yet: the collection is made with pre-images on.
    try {
      await db.createCollection(name, { changeStreamPreAndPostImages: { enabled } })
    } catch (created) {
      if (serverCode(created) !== NAMESPACE_EXISTS) throw created
      await db.command({ collMod: name, changeStreamPreAndPostImages: { enabled } })
    }
  }
}

export async function up({ payload }: MigrateUpArgs): Promise<void> {
  await preImages({ payload }, true)
}

export async function down({ payload }: MigrateDownArgs): Promise<void> {
  await preImages({ payload }, false)
}
