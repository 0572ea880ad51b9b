import type { Payload } from 'payload'

import type { ContentStore } from '../contentTypes'

/** The content and tag hot paths: lists, search, lookups (and the seed's bulk inserts). */
export type ContentReadPort = {
  contentStore(payload: Payload): ContentStore
}
