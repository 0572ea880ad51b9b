/**
 * What must be done before the service reports ready. Start-up work registers a check name
 * and marks it done; /ready answers 503 until every registered one is.
 */
const pending = new Set<string>(['bootstrap'])

export function expectReady(name: string): void {
  pending.add(name)
}

export function markReady(name: string): void {
  pending.delete(name)
}

export function notReady(): string[] {
  return [...pending]
}
