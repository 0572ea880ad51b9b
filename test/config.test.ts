import { describe, expect, it } from 'vitest'

import { MongoClient } from 'mongodb'

import { ConfigError, parseConfig } from '../src/platform/config'
import { databaseLabel, mongoUriFromParts } from '../src/platform/config/databaseUri'

const strong = (c: string) => c.repeat(40)
const prod = {
  NODE_ENV: 'production',
  PAYLOAD_SECRET: strong('p'),
  JWT_ACCESS_SECRET: strong('a'),
  JWT_REFRESH_SECRET: strong('r'),
}

function problemsOf(env: Record<string, string>): string[] {
  try {
    parseConfig(env, '1.2.3')
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError)
    return (err as ConfigError).problems
  }
  throw new Error('expected the configuration to be refused')
}

describe('configuration', () => {
  it('applies the spec defaults', () => {
    const c = parseConfig({}, '1.2.3')
    expect(c.branding).toEqual({
      name: 'App',
      slug: 'app',
      tagline: '',
      description: '',
      logoUrl: '',
      iconUrl: '',
      primaryColor: '#3b82f6',
      publicUrl: '',
      version: '1.2.3',
    })
    expect(c.auth.accessTtlSeconds).toBe(900)
    expect(c.auth.refreshTtlSeconds).toBe(2592000)
    expect(c.pagination).toEqual({ defaultLimit: 30, maxLimit: 200, maxOffset: 10000 })
    expect(c.database).toEqual({ uri: 'file:./data/app.db', name: undefined, engine: 'sqlite' })
    expect(c.corsAllowedOrigins).toEqual([])
    expect(c.rateLimits.login).toEqual({ points: 10, durationSeconds: 3600 })
    expect(c.rateLimits.submit).toEqual({ points: 30, durationSeconds: 3600 })
    expect(c.trustProxy).toEqual({ kind: 'hops', hops: 0 })
    expect(c.httpRequestTimeoutSeconds).toBe(30)
    expect(c.port).toBe(3000)
    expect(c.mediaDir).toBe('data/media')
  })

  it('keeps uploads where MEDIA_DIR says', () => {
    expect(parseConfig({ MEDIA_DIR: '/srv/uploads' }).mediaDir).toBe('/srv/uploads')
  })

  it('defaults APP_VERSION to the package version', () => {
    expect(parseConfig({}).branding.version).toBe('0.1.0')
    expect(parseConfig({ APP_VERSION: '2026.11' }).branding.version).toBe('2026.11')
  })

  it('opens self-registration by default in development and closes it in production', () => {
    expect(parseConfig({ NODE_ENV: 'development' }).auth.allowSelfRegistration).toBe(true)
    expect(parseConfig(prod).auth.allowSelfRegistration).toBe(false)
    expect(parseConfig({ ...prod, AUTH_ALLOW_SELF_REGISTRATION: 'true' }).auth.allowSelfRegistration).toBe(true)
    expect(parseConfig({ AUTH_ALLOW_SELF_REGISTRATION: 'false' }).auth.allowSelfRegistration).toBe(false)
  })

  it('selects the engine from DATABASE_URI', () => {
    expect(parseConfig({ DATABASE_URI: 'mongodb://db:27017/app' }).database.engine).toBe('mongodb')
    expect(parseConfig({ DATABASE_URI: 'mongodb+srv://x.example/app' }).database.engine).toBe('mongodb')
    expect(parseConfig({ DATABASE_URI: 'file:/tmp/x.db' }).database.engine).toBe('sqlite')
    expect(problemsOf({ DATABASE_URI: 'postgres://x' })).toEqual([expect.stringMatching(/^DATABASE_URI:/)])
  })

  it('splits and trims CORS origins', () => {
    expect(parseConfig({ CORS_ALLOWED_ORIGINS: ' chrome-extension://abc , http://localhost:5173/ ,' }).corsAllowedOrigins).toEqual([
      'chrome-extension://abc',
      'http://localhost:5173',
    ])
  })

  it('accepts a complete production environment', () => {
    expect(parseConfig(prod).isProduction).toBe(true)
  })

  it('refuses production without JWT_ACCESS_SECRET', () => {
    const { JWT_ACCESS_SECRET: _, ...env } = prod
    expect(problemsOf(env)).toEqual(['JWT_ACCESS_SECRET: is required in production'])
  })

  it('refuses production without JWT_REFRESH_SECRET', () => {
    const { JWT_REFRESH_SECRET: _, ...env } = prod
    expect(problemsOf(env)).toEqual(['JWT_REFRESH_SECRET: is required in production'])
  })

  it('refuses production without PAYLOAD_SECRET', () => {
    const { PAYLOAD_SECRET: _, ...env } = prod
    expect(problemsOf(env)).toEqual(['PAYLOAD_SECRET: is required in production'])
  })

  it('refuses a JWT secret shorter than 32 bytes in production', () => {
    expect(problemsOf({ ...prod, JWT_ACCESS_SECRET: 'x'.repeat(31) })).toEqual([
      'JWT_ACCESS_SECRET: must be at least 32 bytes',
    ])
    expect(problemsOf({ ...prod, JWT_REFRESH_SECRET: 'short' })).toEqual(['JWT_REFRESH_SECRET: must be at least 32 bytes'])
  })

  it('refuses equal access and refresh secrets', () => {
    expect(problemsOf({ ...prod, JWT_REFRESH_SECRET: prod.JWT_ACCESS_SECRET })).toEqual([
      'JWT_REFRESH_SECRET: must differ from JWT_ACCESS_SECRET',
    ])
  })

  it('names every bad variable in one message and never prints a value', () => {
    const secretValue = 'tiny-secret-value'
    let message = ''
    try {
      parseConfig({ NODE_ENV: 'production', JWT_ACCESS_SECRET: secretValue, JWT_REFRESH_SECRET: secretValue }, '1')
    } catch (err) {
      message = (err as Error).message
    }
    expect(message).toContain('JWT_ACCESS_SECRET: must be at least 32 bytes')
    expect(message).toContain('JWT_REFRESH_SECRET: must be at least 32 bytes')
    expect(message).toContain('JWT_REFRESH_SECRET: must differ from JWT_ACCESS_SECRET')
    expect(message).toContain('PAYLOAD_SECRET: is required in production')
    expect(message).not.toContain(secretValue)
  })

  it('reports malformed values by variable name', () => {
    const problems = problemsOf({ PORT: 'eighty', APP_PRIMARY_COLOR: 'blue', PAGINATION_MAX_LIMIT: '-1', RATE_LIMIT_LOGIN: 'ten' })
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'APP_PRIMARY_COLOR',
      'PAGINATION_MAX_LIMIT',
      'PORT',
      'RATE_LIMIT_LOGIN',
    ])
    expect(problems.join('\n')).not.toContain('eighty')
  })

  it('refuses a default limit above the maximum', () => {
    expect(problemsOf({ PAGINATION_DEFAULT_LIMIT: '300' })).toEqual([
      'PAGINATION_DEFAULT_LIMIT: must not exceed PAGINATION_MAX_LIMIT',
    ])
  })

  it('requires the bootstrap admin email and password together, and a 12-character password', () => {
    expect(problemsOf({ BOOTSTRAP_ADMIN_EMAIL: 'a@example.com' })).toEqual([
      'BOOTSTRAP_ADMIN_EMAIL/BOOTSTRAP_ADMIN_PASSWORD: set both or neither',
    ])
    expect(problemsOf({ BOOTSTRAP_ADMIN_EMAIL: 'a@example.com', BOOTSTRAP_ADMIN_PASSWORD: 'short' })[0]).toMatch(
      /^BOOTSTRAP_ADMIN_PASSWORD:/,
    )
  })

  it('does not enforce secrets while next build evaluates modules', () => {
    expect(parseConfig({ NODE_ENV: 'production' }, '1', { building: true }).isProduction).toBe(true)
  })

  it('treats empty variables as unset', () => {
    expect(parseConfig({ APP_NAME: '', PORT: '' }, '1').branding.name).toBe('App')
  })
})

describe('database URI from DATABASE_* parts', () => {
  // The driver's own parser: what it decodes is what it sends to the server.
  const credentialsSeenByDriver = (uri: string) => {
    const client = new MongoClient(uri)
    const { credentials, dbName, hosts, replicaSet } = client.options
    return { username: credentials?.username, password: credentials?.password, source: credentials?.source, dbName, hosts: hosts.map(String), replicaSet }
  }

  const passwords = ['a/b', 'a:b', '100%', 'x@y', 'what?', 'h#sh', 'p+q', 'Zm9v/Ym:Fy%40@?#+==', ' spaced ', 'ümlaut']
  it.each(passwords)('password %j reaches the driver unchanged', (password) => {
    const c = parseConfig({ DATABASE_HOST: 'mongo:27017', DATABASE_ROOT_USER: 'root', DATABASE_ROOT_PASSWORD: password, DB_NAME: 'curation' })
    expect(c.database.engine).toBe('mongodb')
    expect(credentialsSeenByDriver(c.database.uri)).toEqual({
      username: 'root',
      password,
      source: 'admin',
      dbName: 'curation',
      hosts: ['mongo:27017'],
      replicaSet: 'rs0',
    })
    // WHATWG URL agrees: the encoded userinfo decodes back to the same password.
    expect(decodeURIComponent(new URL(c.database.uri.replace(/^mongodb:/, 'http:')).password)).toBe(password)
  })

  it('encodes the user too, and accepts a host list', () => {
    const uri = mongoUriFromParts({ hosts: 'a:27017,b:27018', user: 'ad@min:1', password: 'p/w', dbName: 'db' })
    expect(uri).toBe('mongodb://ad%40min%3A1:p%2Fw@a:27017,b:27018/db?authSource=admin&replicaSet=rs0')
    expect(credentialsSeenByDriver(uri)).toMatchObject({ username: 'ad@min:1', password: 'p/w', hosts: ['a:27017', 'b:27018'] })
  })

  it('builds a credential-free URI when neither user nor password is set', () => {
    expect(parseConfig({ DATABASE_HOST: 'localhost' }).database.uri).toBe('mongodb://localhost/?replicaSet=rs0')
  })

  it('names the replica set from DATABASE_REPLICA_SET and connects directly when DATABASE_DIRECT_CONNECTION is true', () => {
    expect(parseConfig({ DATABASE_HOST: 'localhost', DATABASE_REPLICA_SET: 'prod-rs.1' }).database.uri).toBe(
      'mongodb://localhost/?replicaSet=prod-rs.1',
    )
    expect(parseConfig({ DATABASE_HOST: '127.0.0.1:27017', DATABASE_DIRECT_CONNECTION: 'true' }).database.uri).toBe(
      'mongodb://127.0.0.1:27017/?replicaSet=rs0&directConnection=true',
    )
    expect(problemsOf({ DATABASE_HOST: 'a,b', DATABASE_DIRECT_CONNECTION: 'true', DATABASE_REPLICA_SET: 'rs0&w=0' })).toEqual([
      'DATABASE_REPLICA_SET: letters, digits, "_", "." and "-" only',
      'DATABASE_DIRECT_CONNECTION: needs exactly one host in DATABASE_HOST',
    ])
  })

  it('DATABASE_TLS (and DATABASE_TLS_CA_FILE) put TLS into a URI built from parts', () => {
    expect(parseConfig({ DATABASE_HOST: 'db.example.com', DATABASE_TLS: 'true' }).database.uri).toBe('mongodb://db.example.com/?replicaSet=rs0&tls=true')
    expect(parseConfig({ DATABASE_HOST: 'db.example.com', DATABASE_TLS: 'true', DATABASE_TLS_CA_FILE: '/etc/ssl/my ca.pem' }).database.uri).toBe(
      'mongodb://db.example.com/?replicaSet=rs0&tls=true&tlsCAFile=%2Fetc%2Fssl%2Fmy+ca.pem',
    )
    expect(parseConfig({ DATABASE_HOST: 'db.example.com', DATABASE_TLS: 'false' }).database.uri).toBe('mongodb://db.example.com/?replicaSet=rs0')
    expect(problemsOf({ DATABASE_HOST: 'db.example.com', DATABASE_TLS_CA_FILE: '/ca.pem' })).toEqual(['DATABASE_TLS_CA_FILE: needs DATABASE_TLS=true'])
  })

  it('DATABASE_URI is used as given when DATABASE_HOST is unset', () => {
    expect(parseConfig({ DATABASE_URI: 'mongodb://h/x?replicaSet=rs0', DATABASE_ROOT_PASSWORD: 'ignored' }).database.uri).toBe(
      'mongodb://h/x?replicaSet=rs0',
    )
  })

  it('refuses unusable parts, naming the variables and never the password', () => {
    const secret = 'do-not-print-me'
    const problems = problemsOf({ DATABASE_HOST: 'mongo:27017/evil', DATABASE_ROOT_PASSWORD: secret, DATABASE_URI: 'mongodb://x' })
    expect(problems).toEqual([
      'DATABASE_URI/DATABASE_HOST: set one, not both',
      'DATABASE_HOST: must be a comma-separated list of host[:port]',
      'DATABASE_ROOT_USER/DATABASE_ROOT_PASSWORD: set both or neither',
    ])
    expect(problems.join('\n')).not.toContain(secret)
  })
})

describe('the database as a log line names it (databaseLabel)', () => {
  it('scheme, hosts and database; never the credentials or the options', () => {
    expect(databaseLabel('mongodb://app:s3cr%40t@a:27017,b:27017/curation?replicaSet=rs0&tlsCAFile=/k.pem')).toBe('mongodb://a:27017,b:27017/curation')
    expect(databaseLabel('mongodb+srv://app:pw@cluster.example.net/?retryWrites=true', 'curation')).toBe('mongodb+srv://cluster.example.net/curation')
    expect(databaseLabel('mongodb://p@ss:w@rd@h:1/db')).toBe('mongodb://h:1/db')
    expect(databaseLabel('file:data/app.db')).toBe('sqlite:data/app.db')
  })
})
