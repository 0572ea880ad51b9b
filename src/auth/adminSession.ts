/**
 * The admin panel's sign-in, on the same argon2id password store as POST /api/v1/auth/login.
 * These handlers replace Payload's built-in /api/users/login and /first-register (custom
 * collection endpoints are matched first) and keep Payload's own session: a session id on
 * the user, a Payload-signed JWT and the `payload-token` cookie, so the rest of the admin
 * panel (me, refresh-token, logout) works unchanged. Forgot/reset-password and unlock,
 * which would write Payload's pbkdf2 password, are refused.
 */
import { addDataAndFileToRequest, getFieldsToSign, jwtSign, type PayloadHandler, type PayloadRequest } from 'payload'
import { addSessionToUser, generatePayloadCookie } from 'payload/shared'
import { z } from 'zod'

import { canEnterConsole } from '../../access/collectionAccess'
import { clientIp } from '../api/clientIp'
import { logger } from '../logging'
import { verifyCredentials } from '../services/auth'
import { SYSTEM_GRANTOR } from '../services/grants'
import { consumeLimit } from '../services/rateLimit'
import { ADMIN_ROLE_NAME, roleIdByName } from '../services/roles'
import { createUser } from '../services/users'
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './passwords'

/** Payload's admin expects `{ errors: [{ message }] }` on failure. */
const fail = (status: number, message: string, headers?: Record<string, string>) =>
  Response.json({ errors: [{ message }] }, { status, headers })

async function readData(req: PayloadRequest): Promise<Record<string, unknown>> {
  await addDataAndFileToRequest(req)
  return (req.data ?? {}) as Record<string, unknown>
}

/** Starts a Payload admin session for the user and answers as Payload's login does. */
async function startSession(req: PayloadRequest, userId: string, message: string): Promise<Response> {
  const { payload } = req
  const collectionConfig = payload.collections.users!.config
  const dbUser = (await payload.db.findOne({ collection: 'users', where: { id: { equals: userId } }, req })) as Record<string, unknown> & { id: string; email: string }
  const { sid } = await addSessionToUser({ collectionConfig, payload, req, user: dbUser as never })
  const fieldsToSign = getFieldsToSign({ collectionConfig, email: dbUser.email, user: dbUser as never, sid })
  const { exp, token } = await jwtSign({ fieldsToSign, secret: payload.secret, tokenExpiration: collectionConfig.auth.tokenExpiration })
  const cookie = generatePayloadCookie({ collectionAuthConfig: collectionConfig.auth, cookiePrefix: payload.config.cookiePrefix, token })
  // Hidden fields (passwordHash, hash, salt) never leave through findByID; read with
  // overrideAccess it still carries Payload's sessions, which never leave either.
  const { sessions: _sessions, ...user } = await payload.findByID({ collection: 'users', id: userId, depth: collectionConfig.auth.depth ?? 1, overrideAccess: true })
  return Response.json({ message, user, token, exp }, { status: 200, headers: { 'Set-Cookie': cookie } })
}

const credentials = z.object({ email: z.string().trim().min(1).max(320), password: z.string().min(1).max(PASSWORD_MAX_LENGTH) })

/** POST /api/users/login: argon2 credentials, console permission, then a Payload session. */
export const adminLogin: PayloadHandler = async (req) => {
  const limit = await consumeLimit(req.payload, 'login', clientIp(req.headers))
  if (!limit.allowed) {
    logger().warn({ limit: 'login', route: 'POST /api/users/login' }, 'ratelimit.exceeded')
    return fail(429, 'Too many sign-in attempts; try again later.', { 'Retry-After': String(limit.retryAfterSeconds) })
  }
  const parsed = credentials.safeParse(await readData(req))
  const user = parsed.success ? await verifyCredentials(req.payload, parsed.data.email, parsed.data.password) : null
  if (!user) return fail(401, 'The email or password is incorrect.')
  // Members hold no console permission and are refused here as well as by access.admin.
  if (!canEnterConsole({ req: { ...req, user } as unknown as PayloadRequest })) {
    return fail(403, 'This account cannot use the admin console.')
  }
  return startSession(req, String(user.id), 'Authentication Passed')
}

const firstUser = z.object({
  email: z.email().max(320),
  password: z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH),
  username: z.string().trim().min(3).max(32).optional(),
})

/**
 * POST /api/users/first-register: only while no user exists (no bootstrap admin configured).
 * The first user gets the seeded admin role and an argon2id password.
 */
export const adminFirstRegister: PayloadHandler = async (req) => {
  const existing = await req.payload.count({ collection: 'users', overrideAccess: true })
  if (existing.totalDocs > 0) return fail(403, 'The first user already exists.')
  const parsed = firstUser.safeParse(await readData(req))
  if (!parsed.success) return fail(400, `Enter a valid email and a password of at least ${PASSWORD_MIN_LENGTH} characters.`)
  const adminRole = await roleIdByName(req.payload, ADMIN_ROLE_NAME)
  const { email, password } = parsed.data
  const username = parsed.data.username ?? (email.split('@')[0]!.replace(/[^a-zA-Z0-9_.-]/g, '').slice(0, 32) || 'admin')
  const user = await createUser(req.payload, { email, username, password, roles: adminRole ? [adminRole] : [] }, SYSTEM_GRANTOR)
  return startSession(req, String(user.id), 'Successfully registered first user.')
}

/** Forgot/reset-password and unlock would set or bypass Payload's own password: refused. */
export const adminPasswordFlowRefused: PayloadHandler = async () =>
  fail(403, 'Password resets are done by an administrator (PATCH /api/v1/users/:id).')
