/**
 * Freshness on MongoDB: each process watches the cached collections with one change stream
 * and moves its own generations on each committed change (src/db/freshness/generations), so no write
 * touches a shared document inside its transaction. Whenever the stream's cursor closes
 * without this feed asking, every cache is dropped (blind): the driver resumes the stream by
 * itself after a network blip (no event lost; live again at its new cursor's first token);
 * when it does not (an error it cannot resume, or an end with no error at all: a cursor the
 * server closed, an interrupted getMore), a new stream is opened, resumed after the last
 * event seen when the server still has it. This process's own writes move its generations at their commit
 * (./planApplier, ./payloadTransactions), before their event arrives.
 */
import type { ChangeStream, ChangeStreamDocument, Db, Document, ResumeToken } from 'mongodb'
import type { Payload } from 'payload'

import type { FreshnessSink } from '../freshness'
import type { ChangeFeedPort } from '../ports'
import { CONTENT_SHAPE_FIELDS, contentDomainOf, DOMAINS, REFERENCED_COLLECTIONS, VERSIONED_COLLECTIONS, type Domain } from '../freshness'
import { logger } from '../../platform/logging'
import { serverCode } from './driverErrors'
import { collectionName, nativeDb } from './native'
import { TAG_RENAME_RUNS } from './tagRename'

/** The server no longer has the resume point: start from now (everything is refreshed anyway). */
const HISTORY_LOST = 286
const INVALID_RESUME_TOKEN = 260
/** Streams failing in a row on one resume token before the feed starts from now instead. */
export const MAX_FAILURES_ON_TOKEN = 3

const RETRY_MIN_MS = 100
const RETRY_MAX_MS = 5_000
/** How long a closed stream may wait for the driver's resume (a server selection) before it is reopened here. */
const RESUME_GRACE_MS = 1_000
const RESUME_CHECK_MS = 50

type Watched = { domains: Map<string, Domain>; referenced: Map<string, Domain>; runs: Map<string, Domain> }

/**
 * The service's own records whose beginning and end (insert, delete; not the lease's heartbeats)
 * move a domain: a tag rename's run flips which of its two slugs answers leave out, in every
 * process (issue 55.2), not only the one carrying it.
 */
const RUN_RECORDS: ReadonlyMap<string, Domain> = new Map([[TAG_RENAME_RUNS, 'taxonomy']])

/** MongoDB collection name → domain, for the collections a cache shows; globals live in one collection. */
export function watchedCollections(payload: Payload): Watched {
  const domains = new Map<string, Domain>()
  const referenced = new Map<string, Domain>()
  // Payload keeps every global in one collection (branding is the only global).
  const globals: unknown = payload.db.globals?.collection?.collectionName
  for (const domain of DOMAINS) {
    for (const slug of VERSIONED_COLLECTIONS[domain]) {
      const name = payload.db.collections?.[slug] ? collectionName(payload, slug) : globals
      if (typeof name === 'string') domains.set(name, domain)
    }
    for (const slug of REFERENCED_COLLECTIONS[domain] ?? []) referenced.set(collectionName(payload, slug), domain)
  }
  return { domains, referenced, runs: new Map(RUN_RECORDS) }
}

/**
 * The stream's pipeline: only the watched collections; the event's `_id` (its resume token) and
 * the written document's id are kept, of an inserted document and of a content row before its
 * change (its pre-image, ./migrations/…_content_pre_images) only what says whether
 * the public sees it, of an update the names of the fields it set or removed and the visibility
 * fields' new values.
 */
export const changeFeedPipeline = (names: readonly string[]): Document[] => [
  // A database's drop and the invalidation after it name no collection: kept, they move everything.
  { $match: { $or: [{ 'ns.coll': { $in: [...names] } }, { operationType: { $in: ['dropDatabase', 'invalidate'] } }] } },
  {
    $project: {
      _id: 1,
      operationType: 1,
      ns: 1,
      documentKey: 1,
      'fullDocument.status': 1,
      'fullDocument.isActive': 1,
      'fullDocumentBeforeChange.status': 1,
      'fullDocumentBeforeChange.isActive': 1,
      'updateDescription.visibility': { status: '$updateDescription.updatedFields.status', isActive: '$updateDescription.updatedFields.isActive' },
      'updateDescription.updatedFields': { $map: { input: { $objectToArray: { $ifNull: ['$updateDescription.updatedFields', {}] } }, in: '$$this.k' } },
      'updateDescription.removedFields': 1,
      // An array shortened in place (a $pull, a $filter) is told here, not among updatedFields.
      'updateDescription.truncatedArrays': 1,
    },
  },
]

const SHAPE_FIELDS = new Set(Object.keys(CONTENT_SHAPE_FIELDS))

/** Whether a content update set or removed a field lists filter, sort or rank by (a dotted path counts by its first part). */
function changesShape(event: ChangeStreamDocument): boolean {
  if (event.operationType !== 'update') return true
  const description = event.updateDescription as { updatedFields?: unknown; removedFields?: unknown; truncatedArrays?: unknown } | undefined
  // Not told which fields: it may have changed any.
  if (!description?.updatedFields) return true
  const truncated = Array.isArray(description.truncatedArrays) ? description.truncatedArrays.map((t: { field?: unknown }) => t?.field) : []
  const fields = [description.updatedFields, description.removedFields, truncated].flatMap((f) => (Array.isArray(f) ? f : f ? Object.keys(f) : []))
  return fields.some((f) => SHAPE_FIELDS.has(String(f).split('.')[0]!))
}

/** The content ids an event wrote (none for another collection). */
export function rowsOfEvent(event: ChangeStreamDocument, watched: Watched): string[] {
  if (!('ns' in event) || !event.ns || !('coll' in event.ns) || watched.domains.get(event.ns.coll) !== 'content') return []
  const key = 'documentKey' in event ? (event.documentKey as { _id?: unknown } | undefined)?._id : undefined
  return key === undefined ? [] : [String(key)]
}

type Visibility = { status?: unknown; isActive?: unknown }

/**
 * A content row's visibility after an update or replace, from its pre-image and the event: the
 * fields the update set take their new values, the ones it removed are gone, the others are as
 * before. Undefined when the event does not say (a delete: no row after).
 */
function visibilityAfter(event: ChangeStreamDocument, before: Visibility): Visibility | undefined {
  if (event.operationType === 'replace') return (event.fullDocument as Visibility | undefined) ?? undefined
  if (event.operationType !== 'update') return undefined
  const description = event.updateDescription as { visibility?: Visibility; removedFields?: unknown } | undefined
  const removed = new Set(Array.isArray(description?.removedFields) ? description.removedFields.map(String) : [])
  const set = description?.visibility ?? {}
  const field = (name: keyof Visibility) => (name in set ? set[name] : removed.has(name) ? undefined : before[name])
  return { status: field('status'), isActive: field('isActive') }
}

/**
 * Whether a content update, replace or delete left the public's view alone: the row was not
 * public before (its pre-image says, where the collection keeps pre-images) and is not after. A
 * pending row's edit, its rejection, its soft delete move only what moderators see, in every
 * process, as SQLite's triggers (which see both states) decide it.
 */
function hiddenBeforeAndAfter(event: ChangeStreamDocument): boolean {
  const before = (event as { fullDocumentBeforeChange?: Visibility | null }).fullDocumentBeforeChange
  if (!before) return false
  return contentDomainOf(before, visibilityAfter(event, before)) === 'all_content'
}

/** What one event changed: some domains, or everything (a drop, rename or invalidation). */
export function domainsOfEvent(event: ChangeStreamDocument, watched: Watched): readonly Domain[] {
  switch (event.operationType) {
    case 'insert':
    case 'update':
    case 'replace':
    case 'delete': {
      const coll = event.ns.coll
      const domain = watched.domains.get(coll)
      // A new content row the public does not see (a pending submission) moves only all_content;
      // so does a change to a row hidden before and after it (its pre-image says), and an update
      // that sets only fields no list reads (a thumbnail: its row's mark moves too); any other
      // change, or one whose pre-image the server no longer has, moves both (../versionDomains).
      if (domain === 'content' && event.operationType === 'insert') return [contentDomainOf(event.fullDocument)]
      if (domain === 'content' && (hiddenBeforeAndAfter(event) || !changesShape(event))) return ['all_content']
      if (domain) return [domain]
      // A referenced collection (uploads shown in branding): its new rows show only once referred to.
      const referencedBy = watched.referenced.get(coll)
      if (referencedBy) return event.operationType !== 'insert' ? [referencedBy] : []
      const run = watched.runs.get(coll)
      return run && (event.operationType === 'insert' || event.operationType === 'delete') ? [run] : []
    }
    default:
      return DOMAINS
  }
}

export const startMongoChangeFeed: ChangeFeedPort['startChangeFeed'] = (payload, sink) => {
  let stopped = false
  let stream: ChangeStream | undefined
  let resumeAfter: ResumeToken | undefined
  let retryMs = RETRY_MIN_MS
  let timer: NodeJS.Timeout | undefined
  // Streams that failed, one after another, resuming from the same token.
  let failuresOnToken = 0

  const reopenLater = () => {
    if (stopped) return
    timer = setTimeout(open, retryMs)
    timer.unref()
    retryMs = Math.min(RETRY_MAX_MS, retryMs * 2)
  }

  function open(): void {
    if (stopped) return
    let db: Db
    let watched: Watched
    try {
      db = nativeDb(payload)
      watched = watchedCollections(payload)
    } catch {
      // Not connected yet: blind (generations held 50 ms at most) until it is.
      return reopenLater()
    }
    const current = db.watch(changeFeedPipeline([...watched.domains.keys(), ...watched.referenced.keys(), ...watched.runs.keys()]), {
      // A content row's state before its change, where its collection keeps pre-images (MongoDB
      // 6.0+; a migration turns them on): without it a hidden row's change moves the public too.
      fullDocumentBeforeChange: 'whenAvailable',
      ...(resumeAfter ? { resumeAfter } : {}),
    })
    stream = current
    follow(current, watched, sink)
  }

  function follow(current: ChangeStream, watched: Watched, to: FreshnessSink): void {
    let live = false
    const blind = () => {
      if (!live) return
      live = false
      to.lost()
    }
    // The first resume token (the server's postBatchResumeToken) means the stream is open; after
    // the driver resumed it, the new cursor's first token means the same.
    current.on('resumeTokenChanged', (token: ResumeToken) => {
      // A stream given up while the driver was still resuming it came back: close it again.
      if (stream !== current) return void current.close().catch(() => undefined)
      resumeAfter = token
      failuresOnToken = 0
      if (!live) {
        live = true
        retryMs = RETRY_MIN_MS
        to.restored()
      }
    })
    // Over for good: blind until a new stream is open.
    const fail = () => {
      if (stream !== current) return
      stream = undefined
      blind()
      void current.close().catch(() => undefined)
      reopenLater()
    }
    // 'close' we did not ask for: the driver is resuming (a new cursor in place within moments,
    // whose first token makes the feed live again), or has ended the stream without an 'error'
    // (the server closed the cursor, as after an invalidate; a getMore was interrupted). Blind
    // at once either way; reopened here when no new cursor came.
    current.on('close', () => {
      if (stream !== current) return
      blind()
      let waited = 0
      const check = setInterval(() => {
        waited += RESUME_CHECK_MS
        if (stream !== current || !current.closed) return clearInterval(check)
        if (waited >= RESUME_GRACE_MS) {
          clearInterval(check)
          fail()
        }
      }, RESUME_CHECK_MS)
      check.unref()
    })
    current.on('change', (event: ChangeStreamDocument) => {
      if (stream !== current) return
      resumeAfter = event._id
      failuresOnToken = 0
      const domains = domainsOfEvent(event, watched)
      const rows = rowsOfEvent(event, watched)
      if (domains.length > 0) to.changed(domains, rows.length > 0 ? rows : undefined)
      // After an invalidation the stream is over: a new one starts from now.
      if (event.operationType === 'invalidate') {
        resumeAfter = undefined
        fail()
      }
    })
    // Errors the driver could not resume. History lost or a token refused: from now. Any other
    // error that keeps coming back on the same token (a token the server cannot resume from for a
    // reason of its own): after a few, from now too, said in the log, rather than blind for ever.
    current.on('error', (err: unknown) => {
      const code = serverCode(err)
      if (code === HISTORY_LOST || code === INVALID_RESUME_TOKEN) resumeAfter = undefined
      else if (resumeAfter !== undefined && ++failuresOnToken >= MAX_FAILURES_ON_TOKEN) {
        logger().warn({ err, code, failures: failuresOnToken }, 'changefeed.token_abandoned')
        resumeAfter = undefined
      }
      if (resumeAfter === undefined) failuresOnToken = 0
      fail()
    })
  }

  open()
  return () => {
    stopped = true
    clearTimeout(timer)
    const last = stream
    stream = undefined
    void last?.close().catch(() => undefined)
  }
}
