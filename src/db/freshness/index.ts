/**
 * Freshness, one room with this one entry (.dependency-cruiser.cjs): what makes a kept answer
 * current. Generations per domain (./generations: a number that moves when a committed write to
 * its domain becomes visible to this process, whatever made it; the engine's change feed moves
 * them), the domains and what each write implies (./versionDomains), the caches keyed on them
 * (./versionedCache; single rows, ./rowRecords) and the
 * content views' domains (./contentViews). docs/architecture.md, "Caches: where an answer came from".
 */
export * from './generations'
export * from './versionDomains'
export * from './versionedCache'
export * from './rowRecords'
export * from './contentViews'
