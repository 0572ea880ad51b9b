/**
 * What an engine provides, as small ports by concern (one file each here), each implemented by
 * both engines (src/db/sqlite/, src/db/mongo/); src/db/engine.ts selects one. A member missing or
 * mistyped in either engine is a compile error.
 */
import type { ChangeFeedPort } from './changeFeed'
import type { ContentReadPort } from './contentReads'
import type { OperationsPort } from './operations'
import type { OutboxReadPort } from './outboxReads'
import type { RateLimitPort } from './rateLimits'
import type { TransactionPort } from './transactions'
import type { WorkflowWritePort } from './workflowWrites'

export type { ChangeFeedPort } from './changeFeed'
export type { Engine, OperationsPort } from './operations'

export type EngineOps = OperationsPort & WorkflowWritePort & ContentReadPort & OutboxReadPort & RateLimitPort & ChangeFeedPort & TransactionPort
