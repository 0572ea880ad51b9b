/**
 * The database connection URI: DATABASE_URI as given, or a MongoDB URI built from parts
 * (DATABASE_HOST, DATABASE_ROOT_USER, DATABASE_ROOT_PASSWORD, DB_NAME). Built URIs
 * percent-encode the credentials, so a password with `/ : % @ ? #` (most
 * `openssl rand -base64` outputs) reaches the driver unchanged.
 */

/** One `host[:port]` or `[ipv6][:port]`; DATABASE_HOST is a comma-separated list of them. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/

/** The replica set the compose file starts (transactions need one). */
export const REPLICA_SET = 'rs0'

export type DatabaseParts = {
  /** Comma-separated `host[:port]` list, e.g. `mongo:27017` or `a:27017,b:27017`. */
  hosts: string
  user?: string
  password?: string
  dbName?: string
}

/** `mongodb://<user>:<password>@<hosts>/<db>?authSource=admin&replicaSet=rs0`, every part encoded. */
export function mongoUriFromParts({ hosts, user, password, dbName }: DatabaseParts): string {
  const credentials =
    user !== undefined && password !== undefined ? `${encodeURIComponent(user)}:${encodeURIComponent(password)}@` : ''
  const options = new URLSearchParams({ ...(credentials ? { authSource: 'admin' } : {}), replicaSet: REPLICA_SET })
  return `mongodb://${credentials}${hosts}/${encodeURIComponent(dbName ?? '')}?${options}`
}

type UriEnv = {
  DATABASE_URI?: string
  DATABASE_HOST?: string
  DATABASE_ROOT_USER?: string
  DATABASE_ROOT_PASSWORD?: string
  DB_NAME?: string
}

/**
 * The URI the service connects to; pushes a problem (naming variables, never values) when
 * the parts are unusable. Neither DATABASE_URI nor DATABASE_HOST: the embedded SQLite file.
 */
export function resolveDatabaseUri(env: UriEnv, problems: string[]): string {
  if (env.DATABASE_HOST === undefined) return env.DATABASE_URI ?? 'file:./data/app.db'
  if (env.DATABASE_URI !== undefined) {
    problems.push('DATABASE_URI/DATABASE_HOST: set one, not both')
  }
  const hosts = env.DATABASE_HOST.split(',').map((h) => h.trim())
  if (!hosts.every((h) => HOST.test(h))) {
    problems.push('DATABASE_HOST: must be a comma-separated list of host[:port]')
  }
  if ((env.DATABASE_ROOT_USER === undefined) !== (env.DATABASE_ROOT_PASSWORD === undefined)) {
    problems.push('DATABASE_ROOT_USER/DATABASE_ROOT_PASSWORD: set both or neither')
  }
  return mongoUriFromParts({
    hosts: hosts.join(','),
    user: env.DATABASE_ROOT_USER,
    password: env.DATABASE_ROOT_PASSWORD,
    dbName: env.DB_NAME,
  })
}

/** The engine a connection URI names. */
export const engineOfUri = (uri: string): 'sqlite' | 'mongodb' => (uri.startsWith('mongodb') ? 'mongodb' : 'sqlite')

/**
 * The configured engine, from the environment alone: for choosing the engine's module when
 * src/db/engine loads, before anything may parse (and cache) the whole configuration. A test
 * file sets its variables after its imports have run, and must still get them.
 */
export function configuredEngine(env: Record<string, string | undefined> = process.env): 'sqlite' | 'mongodb' {
  return engineOfUri(resolveDatabaseUri(env, []))
}
