/**
 * The admin panel's sign-in on `users`, on the same argon2id password store as POST
 * /api/v1/auth/login. These replace Payload's built-in /api/users/login and /first-register
 * (custom endpoints are matched first) and keep Payload's session and cookie
 * (src/auth/adminSession.ts). Errors are the API's envelope (plus the `errors: [{ message }]`
 * Payload's login form shows), with the request id and the `request.completed` line.
 * Forgot/reset-password and unlock, which would write Payload's pbkdf2 password, are refused.
 */
import { z } from 'zod'

import { permissionsOfUser } from '../access/userPermissions'
import { consoleEndpoint } from '../src/edge/consoleEndpoint'
import { parseWith } from '../src/edge/validation'
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../src/auth/passwords'
import { CONSOLE_PERMISSIONS } from '../src/auth/permissions'
import { startSession } from '../src/auth/adminSession'
import { ApiError, forbidden } from '../src/platform/errors'
import { verifyCredentials } from '../src/services/auth'
import { SYSTEM_GRANTOR } from '../src/services/grants'
import { rateLimit } from '../src/edge/rateLimitGate'
import { enforceLimit } from '../src/services/rateLimit'
import { ADMIN_ROLE_NAME, roleIdByName } from '../src/services/roles'
import { createUser } from '../src/services/users'

const credentials = z.object({ email: z.string().trim().min(1).max(320), password: z.string().min(1).max(PASSWORD_MAX_LENGTH) })

const firstUser = z.object({
  email: z.email().max(320),
  password: z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH),
  username: z.string().trim().min(3).max(32).optional(),
})

/** The first user's fields (parseWith's details), with the message Payload's form shows. */
async function firstUserOf(input: unknown): Promise<z.infer<typeof firstUser>> {
  try {
    return parseWith(firstUser, input)
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 'validation.failed') throw err
    throw new ApiError(400, err.code, `Enter a valid email and a password of at least ${PASSWORD_MIN_LENGTH} characters.`, err.details)
  }
}

const invalidCredentials = () => new ApiError(401, 'auth.invalid_credentials', 'The email or password is incorrect.')

/** POST /api/users/login: argon2 credentials, console permission, then a Payload session. */
const login = consoleEndpoint('users', {
  method: 'post',
  path: '/login',
  auth: 'none',
  // Per address (many accounts tried from one place), then per account from that address: a team
  // behind one office address does not share one budget (issue 53.9).
  before: rateLimit('consoleLoginAddress'),
  payloadFormErrors: true,
  handler: async ({ req, body, ip, log }, session) => {
    // A malformed sign-in is refused like a wrong one (401, not 400 with details): the answer
    // never tells which part was wrong.
    const parsed = credentials.safeParse(await body())
    const account = parsed.success ? parsed.data.email.toLowerCase() : ''
    await enforceLimit(req.payload, 'consoleLogin', `${ip}|${account}`, log)
    const user = parsed.success ? await verifyCredentials(req.payload, parsed.data.email, parsed.data.password) : null
    if (!user) throw invalidCredentials()
    // Members hold no console permission and are refused here as well as by access.admin.
    const held = permissionsOfUser(user)
    if (!CONSOLE_PERMISSIONS.some((p) => held.includes(p))) throw forbidden('This account cannot use the admin console.')
    const { answer, cookie } = await startSession(session, String(user.id), 'Authentication Passed')
    return { data: answer, bare: true, headers: { 'Set-Cookie': cookie } }
  },
})

/**
 * POST /api/users/first-register: only while no user exists (no bootstrap admin configured).
 * The first user gets the seeded admin role and an argon2id password.
 */
const firstRegister = consoleEndpoint('users', {
  method: 'post',
  path: '/first-register',
  auth: 'none',
  payloadFormErrors: true,
  handler: async ({ req, body }, session) => {
    const existing = await req.payload.count({ collection: 'users', overrideAccess: true })
    if (existing.totalDocs > 0) throw forbidden('The first user already exists.')
    const input = await firstUserOf(await body())
    const adminRole = await roleIdByName(req.payload, ADMIN_ROLE_NAME)
    const { email, password } = input
    const username = input.username ?? (email.split('@')[0]!.replace(/[^a-zA-Z0-9_.-]/g, '').slice(0, 32) || 'admin')
    const user = await createUser(req.payload, { email, username, password, roles: adminRole ? [adminRole] : [] }, SYSTEM_GRANTOR)
    const { answer, cookie } = await startSession(session, String(user.id), 'Successfully registered first user.')
    return { data: answer, bare: true, headers: { 'Set-Cookie': cookie } }
  },
})

/** Forgot/reset-password and unlock would set or bypass Payload's own password: refused. */
const refused = (path: string) =>
  consoleEndpoint('users', {
    method: 'post',
    path,
    auth: 'none',
    payloadFormErrors: true,
    handler: async () => {
      throw forbidden('Password resets are done by an administrator (PATCH /api/v1/users/:id).')
    },
  })

/**
 * GET /api/users/console-permissions: the signed-in user's effective permissions, for the
 * console's own components (which act on them). The user document Payload hands the browser is
 * read with the user's own access, so a user who may not read roles (a moderator) sees role ids,
 * never the permissions they hold.
 */
const consolePermissions = consoleEndpoint('users', {
  method: 'get',
  path: '/console-permissions',
  handler: async ({ user }) => ({ data: { permissions: user!.permissions } }),
})

export const userConsoleEndpoints = [login, firstRegister, consolePermissions, refused('/forgot-password'), refused('/reset-password'), refused('/unlock')]
