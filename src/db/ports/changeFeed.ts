import type { Payload } from 'payload'

import type { FreshnessSink } from '../freshness'

/**
 * How an engine tells a process that committed writes are visible (src/db/freshness/generations): it
 * reports to `sink` until the returned stop is called. Started once per Payload instance, on
 * first use. A feed starts blind and calls `sink.restored()` once it can tell.
 */
export type ChangeFeedPort = {
  startChangeFeed(payload: Payload, sink: FreshnessSink): () => void
}
