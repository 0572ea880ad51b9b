/**
 * Payload's own REST (the admin panel's saves and lists) answers the database's passing conditions
 * as /api/v1 does, never with a 500: a save that met a concurrent one is 409, asking to save again
 * (on MongoDB two editors creating top-level surfaces at the same moment write the one sibling guard
 * of that list, src/db/mongo/siblingGuards.ts, and the server aborts one transaction; the service's
 * own writes retry it, payloadWrite, but a REST save is Payload's operation, not run again); a
 * database out of reach or a read past its time limit is 503 with Retry-After.
 */
import type { AfterErrorHook } from 'payload'

import { engine } from '../db/engine'
import { fromDatabaseUnavailable, fromTimeLimit } from '../platform/errors'

export const SAVE_AGAIN = 'Someone else saved a change here at the same moment. Save again.'

export const answerDatabaseErrors: AfterErrorHook = ({ error, req }) => {
  if (engine().isTransient(error)) return { status: 409, response: { errors: [{ message: SAVE_AGAIN }] } }
  const unavailable = fromTimeLimit(error) ?? fromDatabaseUnavailable(error)
  if (!unavailable) return undefined
  req.responseHeaders ??= new Headers()
  for (const [name, value] of Object.entries(unavailable.headers ?? {})) req.responseHeaders.set(name, value)
  return { status: 503, response: { errors: [{ message: unavailable.message }] } }
}
