import { z } from 'zod'

import { rateLimit } from '../../src/edge/rateLimitGate'
import { defineRoute } from '../../src/edge/route'
import { refresh as rotate } from '../../src/services/auth'
import { clientInfo } from './clientInfo'
import { refreshTokenField } from '../../src/services/requestBodies'
import { TokenPair } from '../dtos'

const body = z.object({ refreshToken: refreshTokenField })

/** POST /auth/refresh: the refresh token is the credential; it is rotated on every use. */
export const refresh = defineRoute({
  method: 'post',
  path: '/auth/refresh',
  summary: 'Rotate the refresh token: a new pair',
  request: { body },
  responses: { data: TokenPair, rateLimited: true, errors: ['auth.invalid_token'] },
  before: rateLimit('refresh'),
  handler: async (ctx) => {
    const { refreshToken } = ctx.input.body
    return { data: await rotate(ctx.req.payload, refreshToken, clientInfo(ctx), ctx.log) }
  },
})
