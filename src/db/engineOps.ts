/**
 * What an engine provides, as small ports by concern (./ports/*), each implemented by both
 * engines (src/db/sqlite/, src/db/mongo/), one file or folder per port; src/db/engine.ts
 * selects one. A member missing or mistyped in either engine is a compile error.
 */
import type { ChangeFeedPort } from './ports/changeFeed'
import type { ContentReadPort } from './ports/contentReads'
import type { OperationsPort } from './ports/operations'
import type { OutboxReadPort } from './ports/outboxReads'
import type { RateLimitPort } from './ports/rateLimits'
import type { TransactionPort } from './ports/transactions'
import type { WorkflowWritePort } from './ports/workflowWrites'

export type { Engine } from './ports/operations'

export type EngineOps = OperationsPort & WorkflowWritePort & ContentReadPort & OutboxReadPort & RateLimitPort & ChangeFeedPort & TransactionPort
