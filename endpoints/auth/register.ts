import { z } from 'zod'

import { hasPermissions } from '../../access/guards'
import { rateLimit } from '../../src/edge/rateLimitGate'
import { defineRoute } from '../../src/edge/route'
import { getConfig } from '../../src/platform/config'
import { forbidden } from '../../src/platform/errors'
import { register as registerUser } from '../../src/services/auth'
import { clientInfo } from './clientInfo'
import { emailField, passwordField, usernameField } from '../../src/services/requestBodies'
import { Session } from '../dtos'

const registerLimit = rateLimit('register')

const body = z.object({ email: emailField, username: usernameField, password: passwordField })

/** POST /auth/register: open when self-registration is on; otherwise for holders of user.invite. */
export const register = defineRoute({
  method: 'post',
  path: '/auth/register',
  summary: 'Register (open, or with user.invite when self-registration is closed)',
  request: { body },
  responses: { data: Session, status: 201, rateLimited: true, errors: ['auth.forbidden', 'user.email_taken', 'user.username_taken'] },
  auth: 'optional',
  // Throttled, then open or not for this caller: both before the body is read (a closed
  // registration is 403 whatever was sent).
  before: async (ctx) => {
    await registerLimit(ctx)
    if (!getConfig().auth.allowSelfRegistration && !hasPermissions(ctx.user, ['user.invite'])) {
      throw forbidden('Self-registration is closed; an invite (permission user.invite) is required.')
    }
  },
  handler: async (ctx) => ({ status: 201, data: await registerUser(ctx.req.payload, ctx.input.body, clientInfo(ctx)) }),
})
