import { rateLimit } from '../../src/edge/rateLimitGate'
import { defineRoute } from '../../src/edge/route'
import { login as loginUser } from '../../src/services/auth'
import { loginBody as body } from '../../src/services/requestBodies'
import { clientInfo } from './clientInfo'
import { Session } from '../dtos'


export const login = defineRoute({
  method: 'post',
  path: '/auth/login',
  summary: 'Sign in: a token pair and the user',
  request: { body },
  responses: { data: Session, rateLimited: true, errors: ['auth.invalid_credentials'] },
  before: rateLimit('login'),
  handler: async (ctx) => {
    const { email, password } = ctx.input.body
    return { data: await loginUser(ctx.req.payload, email, password, clientInfo(ctx)) }
  },
})
