/**
 * Decisions as a moderation team meets them in the console, where two people may act on one
 * item at once (issue 53.4). The API keeps the specification's answers (approving an approved
 * item is 422 `content.state_invalid`); the console's endpoints ask these instead:
 * - an identical decision someone else made first (both pressed `a`) is the outcome the person
 *   wanted: it answers the item with who decided it and when, not an error;
 * - a different one (B approved, A rejects) keeps its 422/409, now saying who decided and when;
 * - the queue asks what became of the rows it shows, so rows others decided leave while it is open.
 */
import type { Payload } from 'payload'

import type { AuthUser } from '../../access/guards'
import { engine } from '../db/engine'
import { ApiError } from '../platform/errors'
import { getTaxonomy } from './catalog'
import { approveContent, rejectContent } from './contentWrites'
import { type ContentDto, toContentDto } from './content'
import { moderationQueue, type QueueFilters } from './moderationQueue'
import { userNamesById } from './users'

export type Decider = { id: string; name: string } | null

/** Who last moved an item out of pending, and when (the audit trail's latest approve or reject). */
export type LastDecision = { status: 'approved' | 'rejected'; by: Decider; at: string }

const nameOf = (n: { email: string | null; username: string | null } | undefined) => n?.username ?? n?.email ?? 'someone'

/** The latest approve or reject of each item (one query), with its actor's name. */
export async function lastDecisions(payload: Payload, ids: readonly string[]): Promise<Map<string, LastDecision>> {
  const out = new Map<string, LastDecision>()
  if (ids.length === 0) return out
  const events = await payload.find({
    collection: 'moderation-events',
    where: { and: [{ targetId: { in: [...new Set(ids)] } }, { action: { in: ['approve', 'reject'] } }] },
    sort: '-at',
    depth: 0,
    pagination: false,
    overrideAccess: true,
    select: { targetId: true, action: true, actor: true, at: true },
  })
  const actorOf = (d: (typeof events.docs)[number]) => (d.actor == null ? null : typeof d.actor === 'object' ? String(d.actor.id) : String(d.actor))
  const names = await userNamesById(payload, events.docs.map(actorOf).filter((id): id is string => !!id))
  for (const d of events.docs) {
    if (out.has(d.targetId)) continue
    const actor = actorOf(d)
    out.set(d.targetId, {
      status: d.action === 'approve' ? 'approved' : 'rejected',
      by: actor ? { id: actor, name: nameOf(names.get(actor)) } : null,
      at: new Date(d.at).toISOString(),
    })
  }
  return out
}

/** The console's answer to a decision: the item, and who had decided it already when that was someone else. */
export type ConsoleDecision = ContentDto & { alreadyDecided?: { by: Decider; at: string } }

/**
 * Approves or rejects as the console asks: the item the person meant, by id. An identical decision
 * already made (by someone else, or a retry) is the outcome asked for; a different one is refused
 * with who made it and when.
 */
export async function decideInConsole(
  payload: Payload,
  id: string,
  action: 'approve' | 'reject',
  reason: string | null,
  user: AuthUser,
): Promise<ConsoleDecision> {
  try {
    return action === 'approve' ? await approveContent(payload, { id }, user) : await rejectContent(payload, { id }, reason, user)
  } catch (err) {
    if (!(err instanceof ApiError) || (err.code !== 'content.state_invalid' && err.code !== 'content.conflict')) throw err
    const wanted = action === 'approve' ? 'approved' : 'rejected'
    const record = await engine().contentStore(payload).contentById(id)
    const decision = (await lastDecisions(payload, [id])).get(id)
    if (record && record.isActive && record.status === wanted) {
      return { ...toContentDto(record, await getTaxonomy(payload)), alreadyDecided: { by: decision?.by ?? null, at: decision?.at ?? record.updatedAt } }
    }
    const by = decision && record?.isActive && record.status === decision.status ? decision : undefined
    if (!by) throw err
    throw new ApiError(err.status, err.code, `This item was already ${by.status} by ${by.by?.name ?? 'someone'}; you asked to ${action} it.`, {
      ...(err.details as object),
      decidedBy: by.by,
      decidedAt: by.at,
    })
  }
}

/** What became of some rows the queue shows (those no longer pending), and the queue's count now. */
export type QueueStatus = {
  pending: number
  decided: { id: string; status: string; by: Decider; at: string | null }[]
  /** Shown items someone else has open in the edit view now (a light claim: "max is editing this"). */
  editing: { id: string; by: { id: string; name: string } }[]
}

/** A lock's holder as Payload stores it (depth 0): the user's id, or the user. */
const holderId = (user: unknown): string | undefined => {
  const value = (user as { value?: unknown } | null | undefined)?.value
  if (typeof value === 'string') return value
  if (value && typeof value === 'object' && 'id' in value) return String((value as { id: unknown }).id)
  return undefined
}

/**
 * Who has which of `ids` open in the edit view now, the viewer aside: Payload's document locks,
 * live while their holder's view keeps them (content's lock duration, kept alive every few seconds).
 */
async function editorsOf(payload: Payload, ids: readonly string[], viewerId: string): Promise<QueueStatus['editing']> {
  if (ids.length === 0) return []
  const lock = payload.collections.content?.config.lockDocuments
  const seconds = typeof lock === 'object' && lock ? lock.duration : 300
  const since = new Date(Date.now() - seconds * 1000).toISOString()
  const found = await payload.find({
    collection: 'payload-locked-documents',
    where: { and: [{ 'document.relationTo': { equals: 'content' } }, { 'document.value': { in: [...ids] } }, { updatedAt: { greater_than: since } }] },
    depth: 0,
    limit: ids.length,
    pagination: false,
    overrideAccess: true,
  })
  const held = found.docs
    .map((d) => ({ id: String((d.document as { value?: unknown } | null | undefined)?.value ?? ''), user: holderId(d.user) }))
    .filter((l): l is { id: string; user: string } => !!l.id && !!l.user && l.user !== viewerId)
  const names = await userNamesById(payload, held.map((l) => l.user))
  return held.map((l) => {
    const n = names.get(l.user)
    return { id: l.id, by: { id: l.user, name: n?.username ?? n?.email ?? 'someone' } }
  })
}

export async function queueStatus(payload: Payload, filters: QueueFilters, shown: readonly string[], user: AuthUser): Promise<QueueStatus> {
  const store = engine().contentStore(payload)
  const [page, records] = await Promise.all([
    moderationQueue(payload, { ...filters, offset: 0, limit: 1 }, user),
    Promise.all(shown.map((id) => store.contentById(id))),
  ])
  const gone = records.filter((r): r is NonNullable<typeof r> => !!r && (r.status !== 'pending' || !r.isActive))
  const [decisions, editing] = await Promise.all([
    lastDecisions(payload, gone.map((r) => r.id)),
    editorsOf(payload, records.filter((r) => r && r.status === 'pending' && r.isActive).map((r) => r!.id), user.id),
  ])
  return {
    pending: page.total,
    editing,
    decided: gone.map((r) => {
      const d = decisions.get(r.id)
      return { id: r.id, status: r.isActive ? r.status : 'deleted', by: d?.by ?? null, at: d?.at ?? null }
    }),
  }
}
