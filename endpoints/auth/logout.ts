import { z } from 'zod'

import { defineRoute } from '../../src/edge/route'
import { logout as endFamily } from '../../src/services/auth'
import { refreshTokenField } from '../../src/services/requestBodies'

const body = z.object({ refreshToken: refreshTokenField })

/** POST /auth/logout: revokes the presented refresh token's whole family; data null. */
export const logout = defineRoute({
  method: 'post',
  path: '/auth/logout',
  summary: "Sign out: revokes the refresh token's family",
  request: { body },
  responses: { data: z.null() },
  auth: 'required',
  handler: async (ctx) => {
    const { refreshToken } = ctx.input.body
    await endFamily(ctx.req.payload, ctx.user!.id, refreshToken)
    return { data: null }
  },
})
