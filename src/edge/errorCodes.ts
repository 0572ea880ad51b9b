/**
 * Every error code /api/v1 answers with, and its HTTP status. Routes name the codes their
 * own logic throws (RouteSpec.responses.errors); the OpenAPI document lists them per
 * operation and status, and the contract tests refuse a code a route did not declare.
 */
export const ERROR_CODES = {
  'validation.failed': { status: 400, description: 'The request is not valid; details is the list of `{ field, constraint, value? }`.' },
  'pagination.invalid': { status: 400, description: 'offset or limit out of bounds.' },
  'sort.unsupported': { status: 400, description: 'A reserved sort was requested.' },
  'query.too_short': { status: 400, description: 'q is under the minimum length.' },
  'auth.missing_token': { status: 401, description: 'No Authorization header.' },
  'auth.invalid_token': { status: 401, description: 'Token malformed, expired or not recognized.' },
  'auth.invalid_credentials': { status: 401, description: 'The email or password is incorrect.' },
  'auth.forbidden': { status: 403, description: 'A permission is missing.' },
  'auth.cross_origin': { status: 403, description: 'A console write (session cookie) came from another origin.' },
  'content.submissions_closed': { status: 403, description: 'Submissions are closed.' },
  'content.not_found': { status: 404, description: 'The slug is not an active, caller-visible item.' },
  'tag.not_found': { status: 404, description: 'No tag has this slug.' },
  'user.not_found': { status: 404, description: 'No user has this id.' },
  'role.not_found': { status: 404, description: 'No role has this id.' },
  'surface.not_found': { status: 404, description: 'No surface has this slug.' },
  'group.not_found': { status: 404, description: 'No group has this slug in this surface.' },
  'channel.not_found': { status: 404, description: 'No channel has this slug in this group.' },
  'platform.not_found': { status: 404, description: 'No platform has this slug.' },
  'facet.not_found': { status: 404, description: 'No facet has this key.' },
  'route.not_found': { status: 404, description: 'No such route.' },
  'route.method_not_allowed': { status: 405, description: 'The path exists, the method does not (see Allow).' },
  'request.timeout': { status: 408, description: 'The request did not arrive within the timeout.' },
  'slug.reserved': { status: 409, description: 'A reserved slug was used.' },
  'slug.conflict': { status: 409, description: 'The slug is in use; details = `{ slug, entity }`.' },
  'content.duplicate': { status: 409, description: 'This URL was already submitted; details = `{ slug, status? }`.' },
  'user.email_taken': { status: 409, description: 'The email is already registered.' },
  'user.username_taken': { status: 409, description: 'The username is taken.' },
  'role.name_taken': { status: 409, description: 'A role with this name exists.' },
  'role.protected': { status: 409, description: 'The admin role keeps its name and every permission.' },
  'role.in_use': { status: 409, description: 'The role is held by users.' },
  'user.last_holder': { status: 409, description: 'The change would leave permissions with no active holder; details = `{ permissions }`.' },
  'precondition.failed': {
    status: 412,
    description: 'If-Match names a version the record no longer has (it changed since it was read); details = `{ etag }`, the current one.',
  },
  'content.state_invalid': { status: 422, description: 'The transition is not allowed from the current status.' },
  'content.conflict': {
    status: 409,
    description: 'The item changed (moved or deleted by another request) while this one was in flight; details = `{ status, isActive }` now.',
  },
  'ratelimit.exceeded': { status: 429, description: 'Throttled; Retry-After says when to try again.' },
  'internal.error': { status: 500, description: 'Unhandled; details omitted in production.' },
  'service.unavailable': {
    status: 503,
    description: 'The service cannot answer now: not ready yet, the database past its time limit, or writes stopped (its log could not be synced; a restart is needed). Retry-After says when to try again.',
  },
} as const satisfies Record<string, { status: number; description: string }>

export type ErrorCode = keyof typeof ERROR_CODES

