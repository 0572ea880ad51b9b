/** Picks the content store for the running engine; reached only through engine.ts. */
import type { Payload } from 'payload'

import { getConfig } from '../config'
import type { ContentStore } from './contentTypes'
import { mongoContentStore } from './mongo/contentStore'
import { sqliteFileOf } from './sqlite/connection'
import { sqliteContentStore } from './sqlite/contentStore'

const stores = new WeakMap<object, ContentStore>()

export function contentStoreFor(payload: Payload): ContentStore {
  let store = stores.get(payload.db)
  if (!store) {
    const db = getConfig().database
    store = db.engine === 'mongodb' ? mongoContentStore(payload) : sqliteContentStore(sqliteFileOf(db.uri))
    stores.set(payload.db, store)
  }
  return store
}
