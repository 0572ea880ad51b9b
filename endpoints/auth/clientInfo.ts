import type { ApiContext } from '../../src/edge/route'
import type { ClientInfo } from '../../src/services/refreshTokens'

/** What a refresh-token record notes about the client that obtained it. */
export const clientInfo = (ctx: ApiContext): ClientInfo => ({
  ip: ctx.ip,
  userAgent: ctx.userAgent,
})
