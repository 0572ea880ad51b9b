/**
 * The database connection URI: DATABASE_URI as given, or a MongoDB URI built from parts
 * (DATABASE_HOST, DATABASE_ROOT_USER, DATABASE_ROOT_PASSWORD, DB_NAME, DATABASE_REPLICA_SET,
 * DATABASE_DIRECT_CONNECTION, DATABASE_TLS, DATABASE_TLS_CA_FILE). Built URIs
 * percent-encode the credentials, so a password with `/ : % @ ? #` (most
 * `openssl rand -base64` outputs) reaches the driver unchanged.
 */

/** One `host[:port]` or `[ipv6][:port]`; DATABASE_HOST is a comma-separated list of them. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/

/** The replica set the compose file starts unless DATABASE_REPLICA_SET names another (transactions need one). */
export const REPLICA_SET = 'rs0'

/** MongoDB's replica set names: no spaces, slashes or URI delimiters. */
const REPLICA_SET_NAME = /^[A-Za-z0-9_.-]{1,64}$/

export type DatabaseParts = {
  /** Comma-separated `host[:port]` list, e.g. `mongo:27017` or `a:27017,b:27017`. */
  hosts: string
  user?: string
  password?: string
  dbName?: string
  replicaSet?: string
  /**
   * Talk to the one host given, never to the members it advertises: for a host outside the
   * set's network (the compose member calls itself `mongo:27017`, a name only the compose
   * network resolves). Transactions still run: the URI keeps naming the replica set.
   */
  directConnection?: boolean
  /** TLS to every member; `tlsCAFile`: the CA file that signed their certificates (else the system's). */
  tls?: boolean
  tlsCAFile?: string
}

/** `mongodb://<user>:<password>@<hosts>/<db>?authSource=admin&replicaSet=<name>[&directConnection=true]`, every part encoded. */
export function mongoUriFromParts({ hosts, user, password, dbName, replicaSet, directConnection, tls, tlsCAFile }: DatabaseParts): string {
  const credentials =
    user !== undefined && password !== undefined ? `${encodeURIComponent(user)}:${encodeURIComponent(password)}@` : ''
  const options = new URLSearchParams({
    ...(credentials ? { authSource: 'admin' } : {}),
    replicaSet: replicaSet ?? REPLICA_SET,
    ...(directConnection ? { directConnection: 'true' } : {}),
    ...(tls ? { tls: 'true' } : {}),
    ...(tls && tlsCAFile ? { tlsCAFile } : {}),
  })
  return `mongodb://${credentials}${hosts}/${encodeURIComponent(dbName ?? '')}?${options}`
}

type UriEnv = {
  DATABASE_URI?: string
  DATABASE_HOST?: string
  DATABASE_ROOT_USER?: string
  DATABASE_ROOT_PASSWORD?: string
  DB_NAME?: string
  DATABASE_REPLICA_SET?: string
  DATABASE_DIRECT_CONNECTION?: boolean | string
  DATABASE_TLS?: boolean | string
  DATABASE_TLS_CA_FILE?: string
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
  if (env.DATABASE_REPLICA_SET !== undefined && !REPLICA_SET_NAME.test(env.DATABASE_REPLICA_SET)) {
    problems.push('DATABASE_REPLICA_SET: letters, digits, "_", "." and "-" only')
  }
  const directConnection = env.DATABASE_DIRECT_CONNECTION === true || env.DATABASE_DIRECT_CONNECTION === 'true'
  if (directConnection && hosts.length !== 1) {
    problems.push('DATABASE_DIRECT_CONNECTION: needs exactly one host in DATABASE_HOST')
  }
  const tls = env.DATABASE_TLS === true || env.DATABASE_TLS === 'true'
  if (env.DATABASE_TLS_CA_FILE !== undefined && !tls) problems.push('DATABASE_TLS_CA_FILE: needs DATABASE_TLS=true')
  return mongoUriFromParts({
    tls,
    tlsCAFile: env.DATABASE_TLS_CA_FILE,
    hosts: hosts.join(','),
    user: env.DATABASE_ROOT_USER,
    password: env.DATABASE_ROOT_PASSWORD,
    dbName: env.DB_NAME,
    replicaSet: env.DATABASE_REPLICA_SET,
    directConnection,
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

/**
 * The database as a log line may name it: the engine's scheme, hosts and database, never the
 * credentials or the options (a TLS key file's path, a password in the query).
 */
export function databaseLabel(uri: string, dbName?: string): string {
  if (!/^mongodb(\+srv)?:\/\//.test(uri)) return uri.replace(/^file:/, 'sqlite:').split('?')[0]!
  const [scheme, rest] = uri.split('://') as [string, string]
  const afterCredentials = rest.slice(rest.lastIndexOf('@', rest.indexOf('/') === -1 ? rest.length : rest.indexOf('/')) + 1)
  const [hosts, path = ''] = afterCredentials.split('?')[0]!.split('/')
  return `${scheme}://${hosts}/${dbName ?? path}`
}
