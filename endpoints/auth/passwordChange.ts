import { z } from 'zod'

import { rateLimit } from '../../src/edge/rateLimitGate'
import { defineRoute } from '../../src/edge/route'
import { changePassword } from '../../src/services/auth'
import { clientInfo } from './clientInfo'
import { passwordField } from '../../src/services/requestBodies'
import { TokenPair } from '../dtos'

const body = z.object({ currentPassword: z.string().min(1).max(1024), newPassword: passwordField })

/** POST /auth/password/change: every refresh token of the user is revoked, then a fresh pair issued. */
export const passwordChange = defineRoute({
  method: 'post',
  path: '/auth/password/change',
  summary: 'Change the password: every session ends, a fresh pair is issued',
  request: { body },
  responses: { data: TokenPair, rateLimited: true },
  auth: 'required',
  before: rateLimit('passwordChange'),
  handler: async (ctx) => {
    const { currentPassword, newPassword } = ctx.input.body
    return { data: await changePassword(ctx.req.payload, ctx.user!.id, currentPassword, newPassword, clientInfo(ctx)) }
  },
})
