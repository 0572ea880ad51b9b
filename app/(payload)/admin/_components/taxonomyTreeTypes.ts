/** The taxonomy tree's nodes as the server view hands them to the client editor. */
export type TreeKind = 'surface' | 'group' | 'channel'

export type TreeNode = {
  kind: TreeKind
  id: string
  slug: string
  label: string
  color: string | null
  isActive: boolean
  displayOrder: number
  /** The surface of a group, the group of a channel; null for surfaces. */
  parentId: string | null
}

export const CHILD_KIND: Record<TreeKind, TreeKind | null> = { surface: 'group', group: 'channel', channel: null }
export const COLLECTION: Record<TreeKind, string> = { surface: 'surfaces', group: 'groups', channel: 'channels' }
