/** A tag rename as the engine carries it out: tag, content tagSlugs and audit, all or nothing. */
export type TagRenameInput = {
  oldSlug: string
  newSlug: string
  actorId: string | null
  at: Date
  /** Test seam: runs inside the transaction after content is updated; a throw rolls all back. */
  afterContentUpdate?: () => void
}

export type TagRenameResult =
  | { outcome: 'renamed'; contentCount: number }
  | { outcome: 'not_found' }
  | { outcome: 'taken' }
  /** Another rename of this tag is still running (MongoDB's recorded steps). */
  | { outcome: 'busy' }
