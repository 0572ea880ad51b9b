/**
 * Conditional writes (If-Match, issue 53.2): the API's updates name the version their caller
 * read, and a write on any other version is refused, 412 `precondition.failed` with the current
 * tag. The comparison runs inside the write's own transaction (collections/hooks/preconditions),
 * so it is exact however writes interleave; a write that changes nothing is compared here.
 * Without If-Match a write is unconditional, as the specification's clients expect.
 */
import { versionMatches, versionTag } from '../platform/entityTag'
import { ApiError } from '../platform/errors'

/** If-Match's tags, or undefined when the caller sent none. */
export type IfMatch = readonly string[] | undefined

/** The key under which a service hands its caller's If-Match to the write's hooks (`context`). */
export const IF_MATCH_CONTEXT = 'ifMatch'

export function preconditionFailed(updatedAt: string): ApiError {
  const etag = versionTag(updatedAt)
  return new ApiError(412, 'precondition.failed', 'This record changed after the version you sent in If-Match was read; read it again (its ETag is in details) and reapply your change.', { etag })
}

/** Refuses unless `ifMatch` (when sent) names the stored version. */
export function assertVersion(ifMatch: IfMatch, updatedAt: unknown): void {
  if (ifMatch && typeof updatedAt === 'string' && !versionMatches(ifMatch, updatedAt)) throw preconditionFailed(updatedAt)
}

/** A Local API write's `context` carrying the caller's If-Match to the hooks that compare it. */
export const conditionalContext = (ifMatch: IfMatch): Record<string, unknown> | undefined => (ifMatch ? { [IF_MATCH_CONTEXT]: ifMatch } : undefined)
