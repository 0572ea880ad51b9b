/**
 * The admin panel's session, as Payload's own login starts it: a session id on the user, a
 * Payload-signed JWT and the `payload-token` cookie, so the rest of the admin panel (me,
 * refresh-token, logout) works unchanged. The sign-in itself (argon2id credentials, the
 * console permission) is endpoints/consoleSession.ts.
 */
import { getFieldsToSign, jwtSign, type PayloadRequest, type TypedUser } from 'payload'
import { addSessionToUser, generatePayloadCookie } from 'payload/shared'

/** Payload's login answer (its admin panel reads `user`) and the cookie that carries the session. */
export type ConsoleSession = { answer: { message: string; user: Record<string, unknown>; token: string; exp: number | undefined }; cookie: string }

/** Starts a Payload admin session for the user, as Payload's login does. */
export async function startSession(req: PayloadRequest, userId: string, message: string): Promise<ConsoleSession> {
  const { payload } = req
  const collectionConfig = payload.collections.users!.config
  // The stored row (with its sessions), which Payload's session helpers read and extend.
  const stored = await payload.db.findOne<TypedUser>({ collection: 'users', where: { id: { equals: userId } }, req })
  if (!stored) throw new Error(`startSession: no user ${userId}`)
  const { sid } = await addSessionToUser({ collectionConfig, payload, req, user: stored })
  const fieldsToSign = getFieldsToSign({ collectionConfig, email: stored.email, user: { ...stored, collection: 'users' }, sid })
  const { exp, token } = await jwtSign({ fieldsToSign, secret: payload.secret, tokenExpiration: collectionConfig.auth.tokenExpiration })
  const cookie = generatePayloadCookie({ collectionAuthConfig: collectionConfig.auth, cookiePrefix: payload.config.cookiePrefix, token })
  // Hidden fields (passwordHash, hash, salt) never leave through findByID; read with
  // overrideAccess it still carries Payload's sessions, which never leave either.
  const { sessions: _sessions, ...user } = await payload.findByID({ collection: 'users', id: userId, depth: collectionConfig.auth.depth ?? 1, overrideAccess: true })
  return { answer: { message, user, token, exp }, cookie }
}
