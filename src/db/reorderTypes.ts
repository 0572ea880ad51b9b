/** A reorder of one parent's taxonomy children as the engine carries it out: all displayOrders or none. */
export type ReorderCollection = 'surfaces' | 'groups' | 'channels'

export type ReorderInput = {
  collection: ReorderCollection
  /** The parent relationship (absent for surfaces, which have none). */
  parent?: { field: 'surface' | 'group'; id: string }
  /** Every child's id, in the new order: displayOrder becomes the index. */
  orderedIds: readonly string[]
  at: Date
  /** Test seam: runs inside the transaction after the first write; a throw rolls all back. */
  afterFirstWrite?: () => void
}

/** `mismatch`: the list is not exactly the parent's children (missing, extra or repeated ids). */
export type ReorderResult = { outcome: 'reordered' } | { outcome: 'mismatch'; actual: string[] }

