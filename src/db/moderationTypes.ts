/** A status move that happens only if the item is still in the expected state. */
export type StatusTransition = {
  id: string
  from: 'pending'
  to: 'approved' | 'rejected'
  at: Date
  approvedAt: Date | null
  rejectionReason: string | null
}
