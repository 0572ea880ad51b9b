/** MongoDB's report of a unique violation: a duplicate key, code 11000, with `keyValue` (../uniqueViolation). */
import { uniqueViolationOf } from '../uniqueViolation'
import { serverCode } from './driverErrors'

function fromMongo(err: Error): string | undefined {
  if (serverCode(err) !== 11000) return undefined
  const { keyValue } = err as { keyValue?: unknown }
  if (keyValue && typeof keyValue === 'object') return Object.keys(keyValue)[0]
  const match = /index: (\w+?)(?:_\d+|_idx)? dup key/.exec(err.message)
  return match?.[1]
}

export const uniqueViolationFieldMongo = (err: unknown): string | undefined => uniqueViolationOf(err, fromMongo)
