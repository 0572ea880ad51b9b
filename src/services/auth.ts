/**
 * Identity: registration, login, refresh-token rotation with reuse detection, logout,
 * the current user, and password change. Handlers and the admin-panel login call these.
 */
import type { Payload } from 'payload'

import { signAccessToken } from '../auth/accessToken'
import { openSuccessor, sealSuccessor } from '../auth/refreshToken'
import { getConfig } from '../platform/config'
import { verifyPassword } from '../auth/passwords'
import { ApiError, validationFailed } from '../platform/errors'
import { logger, type RequestLogger } from '../platform/logging'
import {
  claimForRotation,
  clearGrace,
  discardRefreshToken,
  type ClientInfo,
  findRefreshToken,
  isExpired,
  issueRefreshToken,
  revokeAllForUser,
  revokeFamily,
  type RefreshTokenDoc,
} from './refreshTokens'
import { SYSTEM_GRANTOR } from './grants'
import type { Session, TokenPair } from './dtos'
import {
  createUser,
  effectivePermissions,
  findUser,
  findUserWithHash,
  toUserDto,
  updateUser,
  type UserDoc,
  type UserDto,
} from './users'

export type { Session, TokenPair }

const invalidCredentials = () => new ApiError(401, 'auth.invalid_credentials', 'The email or password is incorrect.')
const invalidToken = () => new ApiError(401, 'auth.invalid_token', 'The token is malformed, expired or not recognized.')

/** Access token with the permissions the user's roles grant right now, plus a refresh token. */
async function issueTokens(
  payload: Payload,
  user: UserDoc,
  client: ClientInfo,
  familyId?: string,
  token?: string,
): Promise<TokenPair> {
  const accessToken = await signAccessToken(String(user.id), effectivePermissions(user))
  const refreshToken = await issueRefreshToken(payload, String(user.id), client, familyId, token)
  return { accessToken, refreshToken }
}

/**
 * AUTH_REFRESH_REUSE_GRACE_SECONDS: a rotated token presented again within its window
 * answers the successor it was rotated to (the same refresh token, a freshly signed access
 * token), as long as that successor is still live. Null: not within a grace, i.e. reuse.
 */
async function graceReplay(payload: Payload, doc: RefreshTokenDoc, now: Date): Promise<TokenPair | null> {
  if (getConfig().auth.refreshReuseGraceSeconds <= 0 || !doc.graceToken || !doc.graceUntil) return null
  if (new Date(doc.graceUntil).getTime() <= now.getTime()) return null
  const successor = openSuccessor(doc.graceToken, doc.tokenHash)
  if (!successor) return null
  // Stored before its claim (refresh), so it exists; rotated, logged out or revoked since: reuse.
  const next = await findRefreshToken(payload, successor)
  if (next && (next.revokedAt || isExpired(next, now.getTime()))) return null
  const user = await findUser(payload, doc.userId)
  if (!user || user.isActive === false) return null
  return { accessToken: await signAccessToken(String(user.id), effectivePermissions(user)), refreshToken: successor }
}

/**
 * The user for an email and password, or null. Unknown emails, inactive users and wrong
 * passwords are indistinguishable, and an unknown email still costs one argon2 verification.
 */
export async function verifyCredentials(payload: Payload, email: string, password: string): Promise<UserDoc | null> {
  const found = await findUserWithHash(payload, email)
  const ok = await verifyPassword(found?.passwordHash, password)
  if (!found || !ok || found.isActive === false) return null
  const { passwordHash: _hidden, ...user } = found
  return user
}

export async function register(
  payload: Payload,
  input: { email: string; username: string; password: string },
  client: ClientInfo,
): Promise<Session> {
  // Self-registration always gets the default role; a DTO cannot choose roles here.
  const user = await createUser(payload, { email: input.email, username: input.username, password: input.password }, SYSTEM_GRANTOR)
  return { ...(await issueTokens(payload, user, client)), user: toUserDto(user) }
}

export async function login(payload: Payload, email: string, password: string, client: ClientInfo): Promise<Session> {
  const user = await verifyCredentials(payload, email, password)
  if (!user) throw invalidCredentials()
  return { ...(await issueTokens(payload, user, client)), user: toUserDto(user) }
}

/**
 * Rotation. A token already rotated and presented again means it was copied: every refresh
 * token of its user is revoked and a security event is logged. Of two concurrent refreshes
 * with one token, the atomic claim lets exactly one through; the other counts as reuse —
 * unless AUTH_REFRESH_REUSE_GRACE_SECONDS is set, when a replay within the window gets the
 * winner's successor (graceReplay).
 */
export async function refresh(payload: Payload, token: string, client: ClientInfo, log: RequestLogger = logger()): Promise<TokenPair> {
  const doc = await findRefreshToken(payload, token)
  if (!doc) throw invalidToken()
  const now = new Date()
  const graceSeconds = getConfig().auth.refreshReuseGraceSeconds
  const reused = async () => {
    await revokeAllForUser(payload, doc.userId, 'reuse')
    if (graceSeconds > 0) await clearGrace(payload, doc.userId)
    log.error({ userId: doc.userId, familyId: doc.familyId, ip: client.ip }, 'auth.refresh.reused')
    return invalidToken()
  }
  if (doc.revokedAt) {
    if (doc.revokedReason !== 'rotated') throw invalidToken()
    const replay = await graceReplay(payload, doc, now)
    if (replay) return replay
    throw await reused()
  }
  if (isExpired(doc)) throw invalidToken()
  const user = await findUser(payload, doc.userId)
  if (!user || user.isActive === false) throw invalidToken()
  // The successor is stored before the claim: a concurrent presenter that loses the claim and
  // revokes every token of the user (reuse) then finds it and revokes it too. Stored after, it
  // could escape that revocation. The claim also seals it onto the row for a reuse grace.
  const successor = await issueRefreshToken(payload, doc.userId, client, doc.familyId)
  const sealed =
    graceSeconds > 0
      ? { sealed: sealSuccessor(successor, doc.tokenHash), until: new Date(now.getTime() + graceSeconds * 1000) }
      : undefined
  if (!(await claimForRotation(payload, doc, now, sealed))) {
    await discardRefreshToken(payload, successor)
    // A concurrent refresh won the claim; within a grace its successor is ours too.
    const current = sealed ? await findRefreshToken(payload, token) : null
    const replay = current ? await graceReplay(payload, current, now) : null
    if (replay) return replay
    throw await reused()
  }
  // Sealed successors are kept for their window only.
  if (graceSeconds > 0) await clearGrace(payload, doc.userId, now)
  return { accessToken: await signAccessToken(String(user.id), effectivePermissions(user)), refreshToken: successor }
}

/** Revokes the whole family of the presented token, if it is the caller's. Idempotent. */
export async function logout(payload: Payload, userId: string, token: string): Promise<void> {
  const doc = await findRefreshToken(payload, token)
  if (doc && doc.userId === userId) await revokeFamily(payload, doc.familyId, 'logout')
}

async function activeUser(payload: Payload, userId: string): Promise<UserDoc> {
  const user = await findUser(payload, userId)
  if (!user || user.isActive === false) throw invalidToken()
  return user
}

export async function me(payload: Payload, userId: string): Promise<{ user: UserDto; permissions: string[] }> {
  const user = await activeUser(payload, userId)
  return { user: toUserDto(user), permissions: effectivePermissions(user) }
}

/**
 * Checks the current password, stores the new one (which revokes every refresh token of the
 * user and ends admin sessions, see collections/hooks/users.ts), then issues a fresh pair.
 */
export async function changePassword(
  payload: Payload,
  userId: string,
  currentPassword: string,
  newPassword: string,
  client: ClientInfo,
): Promise<TokenPair> {
  const user = await activeUser(payload, userId)
  const checked = await verifyCredentials(payload, user.email, currentPassword)
  if (!checked || String(checked.id) !== String(user.id)) {
    throw validationFailed([{ field: 'currentPassword', constraint: 'mismatch' }], 'The current password is incorrect.')
  }
  // Only the user's own password, proven by the current one: nothing is granted.
  const updated = await updateUser(payload, String(user.id), { password: newPassword }, SYSTEM_GRANTOR)
  // The hook revoked with the user's write; this makes the rule explicit and independent of it.
  await revokeAllForUser(payload, String(user.id), 'password_change')
  return issueTokens(payload, updated, client)
}
