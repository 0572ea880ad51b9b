/** Payload's own (async) libsql client, for start-up steps that run before the service's connection may. */
import type { Client } from '@libsql/client'

/** Payload's typings name the client's config as `client`; at run time it is the libsql client. */
export function libsqlClient(db: object): Client | null {
  const client: unknown = Reflect.get(db, 'client')
  return client && typeof client === 'object' && 'batch' in client && 'execute' in client ? (client as Client) : null
}

export async function tableExists(client: Client, name: string): Promise<boolean> {
  const found = await client.execute({ sql: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", args: [name] })
  return found.rows.length > 0
}
