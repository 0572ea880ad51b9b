/**
 * What must be done before the service reports ready. Start-up work registers a check name
 * and marks it done; /ready answers 503 until every registered one is, and again from the
 * moment a graceful shutdown begins (`draining`), so a load balancer stops sending traffic.
 */
const pending = new Set<string>(['bootstrap'])

export function expectReady(name: string): void {
  pending.add(name)
}

export function markReady(name: string): void {
  pending.delete(name)
}

/** Shutdown has begun: ready never again in this process. */
export function beginDraining(): void {
  pending.add('draining')
}

export function notReady(): string[] {
  return [...pending]
}
