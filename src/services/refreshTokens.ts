/**
 * Refresh-token records: issue, look up, claim (rotate) and revoke. Raw tokens never touch
 * the database or the logs; only their keyed hash does.
 */
import type { Payload, PayloadRequest, Where } from 'payload'

import type { RefreshToken } from '../../payload-types'
import { hashRefreshToken, newFamilyId, newRefreshToken } from '../auth/refreshToken'
import { getConfig } from '../platform/config'
import { engine } from '../db/engine'
import type { GraceSuccessor } from '../db/engine'
import { claimRefreshToken } from '../db/workflow'
import { payloadWrite } from '../db/payloadWrite'

export type RevokeReason = NonNullable<RefreshToken['revokedReason']>

/** A refresh-token document as the Local API returns it (payload-types.ts). */
export type RefreshTokenDoc = RefreshToken

export type ClientInfo = { ip?: string; userAgent?: string }

const COLLECTION = 'refresh-tokens' as const

/** Stores a new token for the user (in `familyId`, or a new family) and returns the raw token. */
export async function issueRefreshToken(
  payload: Payload,
  userId: string,
  client: ClientInfo,
  familyId: string = newFamilyId(),
  token: string = newRefreshToken(),
): Promise<string> {
  const expiresAt = new Date(Date.now() + getConfig().auth.refreshTtlSeconds * 1000)
  await payloadWrite(() => payload.create({
    collection: COLLECTION,
    data: {
      userId,
      familyId,
      tokenHash: hashRefreshToken(token),
      expiresAt: expiresAt.toISOString(),
      createdUserAgent: (client.userAgent ?? '').slice(0, 512),
      createdIp: client.ip ?? '',
    },
    overrideAccess: true,
  }))
  return token
}

/** Removes a token issued moments ago that turned out not to be wanted (a rotation that lost its claim). */
export async function discardRefreshToken(payload: Payload, token: string): Promise<void> {
  await payloadWrite(() => payload.delete({ collection: COLLECTION, where: { tokenHash: { equals: hashRefreshToken(token) } }, overrideAccess: true }))
}

export async function findRefreshToken(payload: Payload, token: string): Promise<RefreshTokenDoc | null> {
  const res = await payload.find({
    collection: COLLECTION,
    where: { tokenHash: { equals: hashRefreshToken(token) } },
    limit: 1,
    depth: 0,
    overrideAccess: true,
  })
  return res.docs[0] ?? null
}

/**
 * Rotation: revokes the token only if nobody else has. True for the single winner. With a
 * reuse grace the sealed successor is stored by the same conditional update.
 */
export async function claimForRotation(
  payload: Payload,
  doc: RefreshTokenDoc,
  now: Date,
  successor?: GraceSuccessor,
): Promise<boolean> {
  const { claimed } = await claimRefreshToken(payload, doc.tokenHash, 'rotated', now, successor)
  return claimed
}

/** Drops the user's sealed successors: all of them, or those whose window ended before `endedBefore`. */
export async function clearGrace(payload: Payload, userId: string, endedBefore?: Date): Promise<void> {
  await payloadWrite(() => payload.db.updateMany({
    collection: COLLECTION,
    where: {
      and: [
        { userId: { equals: userId } },
        endedBefore ? { graceUntil: { less_than: endedBefore.toISOString() } } : { graceToken: { exists: true } },
      ],
    },
    data: { graceToken: null, graceUntil: null },
  }))
}

async function revokeWhere(
  payload: Payload,
  where: Where,
  reason: RevokeReason,
  req?: PayloadRequest,
): Promise<void> {
  const now = new Date().toISOString()
  // updateMany at the adapter: one statement, no per-document hooks (the collection has none).
  // Inside a Payload operation (`req`) it belongs to that operation's transaction, which its caller retries.
  const revoke = (inReq?: PayloadRequest) =>
    payload.db.updateMany({
      collection: COLLECTION,
      where: { and: [where, { revokedAt: { exists: false } }] },
      data: { revokedAt: now, revokedReason: reason, updatedAt: now },
      req: inReq,
    })
  await (req ? revoke(req) : payloadWrite(() => revoke()))
}

export function revokeAllForUser(payload: Payload, userId: string, reason: RevokeReason, req?: PayloadRequest): Promise<void> {
  return revokeWhere(payload, { userId: { equals: userId } }, reason, req)
}

export function revokeFamily(payload: Payload, familyId: string, reason: RevokeReason): Promise<void> {
  return revokeWhere(payload, { familyId: { equals: familyId } }, reason)
}

export const isExpired = (doc: RefreshTokenDoc, now = Date.now()) => new Date(doc.expiresAt).getTime() <= now
