import { ulid } from 'ulid'

const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/

/** The caller's X-Request-Id when it is a sane token, else a fresh `req_<ulid>`. */
export function requestIdFrom(headers: Headers): string {
  const given = headers.get('x-request-id')
  return given && ACCEPTABLE.test(given) ? given : `req_${ulid()}`
}
