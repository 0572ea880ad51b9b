import { defineRoute } from '../src/edge/route'
import { ApiError } from '../src/platform/errors'
import { databaseAnswers } from '../src/services/health'
import { notReady } from '../src/startup/readiness'
import { HealthStatus } from './dtos'

const unavailable = (details: unknown) =>
  new ApiError(503, 'service.unavailable', 'The service is not ready.', details, { 'Retry-After': '5' })

export const health = defineRoute({
  method: 'get',
  path: '/health',
  summary: 'Liveness: the database answers a ping',
  responses: { data: HealthStatus, errors: ['service.unavailable'] },
  handler: async ({ req }) => {
    if (!(await databaseAnswers(req.payload))) throw unavailable({ database: false })
    return { data: { status: 'ok' } }
  },
})

export const ready = defineRoute({
  method: 'get',
  path: '/ready',
  summary: 'Readiness: database connected and start-up work done',
  responses: { data: HealthStatus, errors: ['service.unavailable'] },
  handler: async ({ req }) => {
    const database = await databaseAnswers(req.payload)
    const waiting = notReady()
    if (!database || waiting.length > 0) throw unavailable({ database, waiting })
    return { data: { status: 'ready' } }
  },
})
