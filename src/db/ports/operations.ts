import type { CollectionConfig, DatabaseAdapterObj, Payload } from 'payload'

import type { AppConfig } from '../../platform/config'

export type Engine = 'sqlite' | 'mongodb'

/** Running the database: Payload's adapter, start-up preparation, health and shutdown. */
export type OperationsPort = {
  readonly name: Engine
  /** Payload's database adapter for this engine. */
  adapter(db: AppConfig['database']): DatabaseAdapterObj
  /** Collections as this engine stores them (SQLite: 24-hex text ids like ObjectIds). */
  withIds(collections: CollectionConfig[]): CollectionConfig[]
  /** True once the database answers a trivial command. */
  ping(payload: Payload): Promise<boolean>
  /**
   * Before anything else at start-up: the pending migrations (src/db/<engine>/migrations) and
   * then `afterMigrate` (bootstrap), both holding a lock across processes, so processes started
   * together take turns; MongoDB checks the replica set and Payload's transactions first and
   * builds Payload's indexes.
   */
  prepare(payload: Payload, afterMigrate?: () => Promise<void>): Promise<void>
  /** Closes connections the service opened beside Payload's (shutdown). */
  closeOwnConnections(payload: Payload): Promise<void>
}
