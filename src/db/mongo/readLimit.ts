/**
 * Every read the content store sends carries a time limit (`maxTimeMS`): the server stops a
 * slow query instead of running on after its client has gone, and the caller gets 503
 * `service.unavailable` with Retry-After, never a 500 or a request that hangs.
 */
import { ApiError } from '../../platform/errors'
import { serverCode } from './driverErrors'

/** The server's limit per read (lists, counts, aggregations); far above any indexed read. */
export const READ_LIMIT_MS = 5_000

/** MaxTimeMSExpired: the server stopped the operation at its limit. */
const MAX_TIME_EXPIRED = 50

export async function bounded<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read()
  } catch (err) {
    if (serverCode(err) !== MAX_TIME_EXPIRED) throw err
    throw new ApiError(503, 'service.unavailable', 'The database did not answer in time; try again.', undefined, { 'Retry-After': '1' })
  }
}
