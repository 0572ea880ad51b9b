/** Liveness for /health and /ready: whether the database answers, asked through the engine. */
import type { Payload } from 'payload'

import { engine } from '../db/engine'

export function databaseAnswers(payload: Payload): Promise<boolean> {
  return engine().ping(payload)
}
