import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import path from 'node:path'

import { engineOfUri, resolveDatabaseUri } from './databaseUri'

export { configuredEngine, databaseLabel } from './databaseUri'
import { envSchema, type RawEnv } from './schema'
import { behindProxy, TRUST_NOTHING, type TrustProxy } from './trustProxy'

export type { TrustProxy } from './trustProxy'

export type RateLimitRule = { points: number; durationSeconds: number }

/** The typed, validated configuration. The only way any module reads the environment. */
export type AppConfig = {
  env: 'development' | 'production' | 'test'
  isProduction: boolean
  port: number
  branding: {
    name: string
    slug: string
    tagline: string
    description: string
    logoUrl: string
    iconUrl: string
    primaryColor: string
    publicUrl: string
    version: string
  }
  database: { uri: string; name?: string; engine: 'sqlite' | 'mongodb' }
  payloadSecret: string
  auth: {
    accessSecret: string
    refreshSecret: string
    accessTtlSeconds: number
    refreshTtlSeconds: number
    allowSelfRegistration: boolean
    /** argon2's cost: `test` only under NODE_ENV=test (PASSWORD_HASH_COST), else `standard`. */
    passwordHashCost: 'standard' | 'test'
    /** Within this many seconds of a rotation, the rotated token answers its successor again (0 = off). */
    refreshReuseGraceSeconds: number
  }
  corsAllowedOrigins: string[]
  contentDefaultGroupSlug?: string
  pagination: { defaultLimit: number; maxLimit: number; maxOffset: number }
  bootstrapAdmin?: { email: string; password: string }
  seedDemo: boolean
  /** Uploaded files' folder (MEDIA_DIR), as given: absolute, or from the working directory. */
  mediaDir: string
  /** The most pixels an uploaded image may declare (MEDIA_MAX_PIXELS). */
  mediaMaxPixels: number
  /** Which proxies may name the client in X-Forwarded-For (src/edge/clientIp). */
  trustProxy: TrustProxy
  /** Node's headersTimeout and requestTimeout (server.ts), in seconds. */
  httpRequestTimeoutSeconds: number
  /**
   * Connections per process (`max`; undefined: from the descriptor limit, src/edge/connectionLimits)
   * and per client address (0: no cap); how long one may stay open with no request (seconds).
   */
  connections: { max: number | undefined; perAddress: number; idleSeconds: number }
  /** BEHIND_TLS: a TLS proxy is in front, so a request that reached us over plain HTTP was HTTPS to its client. */
  behindTls: boolean
  /** The console's session cookie is Secure: APP_PUBLIC_URL is https, or BEHIND_TLS says a TLS proxy is in front. */
  secureCookies: boolean
  /** Request bodies past these sizes are refused with 413 before they are read (src/edge/bodyLimit). */
  bodyLimits: { json: number; upload: number }
  logLevel: string
  /** Server processes (node:cluster workers when above 1, server.ts). */
  webConcurrency: number
  shutdownTimeoutSeconds: number
  /** GET /metrics: on the main port with this bearer token, and/or on 127.0.0.1:port. Neither: 404. */
  metrics: { token?: string; port?: number }
  rateLimits: {
    register: RateLimitRule
    login: RateLimitRule
    refresh: RateLimitRule
    passwordChange: RateLimitRule
    submit: RateLimitRule
    /** The console's sign-in, per account and address; and per address. */
    consoleLogin: RateLimitRule
    consoleLoginAddress: RateLimitRule
  }
}

/** Thrown when the environment is unusable; the message names every bad variable, never a value. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

const MIN_SECRET_BYTES = 32

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(path.join(process.cwd(), 'package.json'), 'utf8'))
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0'
  } catch {
    return '0.0.0'
  }
}

/** Empty strings count as unset, the way a `.env` line `KEY=` is meant. */
function withoutEmpty(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && value !== '') out[key] = value
  }
  return out
}

/**
 * Parses an environment into an AppConfig. Pure: tests call it with a literal object.
 * Development and test runs without secrets get random per-process ones; production refuses.
 */
export function parseConfig(
  env: Record<string, string | undefined>,
  version: string = packageVersion(),
  { building = false }: { building?: boolean } = {},
): AppConfig {
  const given = withoutEmpty(env)
  const parsed = envSchema.safeParse(given)
  const problems: string[] = []
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      problems.push(`${issue.path.join('.') || '(root)'}: ${issue.message.replace(/received .*/i, 'invalid value')}`)
    }
  }
  const isProduction = given.NODE_ENV === 'production'
  // `next build` evaluates modules with NODE_ENV=production but serves nothing: secrets are checked at start.
  const enforceSecrets = isProduction && !building

  const secret = (name: 'JWT_ACCESS_SECRET' | 'JWT_REFRESH_SECRET' | 'PAYLOAD_SECRET'): string => {
    const value = given[name]
    if (value === undefined) {
      if (enforceSecrets) problems.push(`${name}: is required in production`)
      return randomBytes(MIN_SECRET_BYTES).toString('base64url')
    }
    if (name !== 'PAYLOAD_SECRET' && Buffer.byteLength(value, 'utf8') < MIN_SECRET_BYTES) {
      if (enforceSecrets) problems.push(`${name}: must be at least ${MIN_SECRET_BYTES} bytes`)
    }
    return value
  }
  const accessSecret = secret('JWT_ACCESS_SECRET')
  const refreshSecret = secret('JWT_REFRESH_SECRET')
  const payloadSecret = secret('PAYLOAD_SECRET')
  if (given.JWT_ACCESS_SECRET !== undefined && given.JWT_ACCESS_SECRET === given.JWT_REFRESH_SECRET) {
    problems.push('JWT_REFRESH_SECRET: must differ from JWT_ACCESS_SECRET')
  }
  if (!parsed.success) throw new ConfigError(problems)
  const raw: RawEnv = parsed.data
  if (raw.PAGINATION_DEFAULT_LIMIT > raw.PAGINATION_MAX_LIMIT) {
    problems.push('PAGINATION_DEFAULT_LIMIT: must not exceed PAGINATION_MAX_LIMIT')
  }
  if ((raw.BOOTSTRAP_ADMIN_EMAIL === undefined) !== (raw.BOOTSTRAP_ADMIN_PASSWORD === undefined)) {
    problems.push('BOOTSTRAP_ADMIN_EMAIL/BOOTSTRAP_ADMIN_PASSWORD: set both or neither')
  }
  const uri = resolveDatabaseUri(raw, problems)
  if (problems.length > 0) throw new ConfigError(problems)

  return {
    env: raw.NODE_ENV,
    isProduction,
    port: raw.PORT,
    branding: {
      name: raw.APP_NAME,
      slug: raw.APP_SLUG,
      tagline: raw.APP_TAGLINE,
      description: raw.APP_DESCRIPTION,
      logoUrl: raw.APP_LOGO_URL,
      iconUrl: raw.APP_ICON_URL,
      primaryColor: raw.APP_PRIMARY_COLOR,
      publicUrl: raw.APP_PUBLIC_URL,
      version: raw.APP_VERSION ?? version,
    },
    database: {
      uri,
      name: raw.DB_NAME,
      engine: engineOfUri(uri),
    },
    payloadSecret,
    auth: {
      accessSecret,
      refreshSecret,
      accessTtlSeconds: raw.JWT_ACCESS_TTL_SECONDS,
      refreshTtlSeconds: raw.JWT_REFRESH_TTL_SECONDS,
      allowSelfRegistration: raw.AUTH_ALLOW_SELF_REGISTRATION ?? !isProduction,
      passwordHashCost: raw.PASSWORD_HASH_COST === 'test' && given.NODE_ENV === 'test' ? 'test' : 'standard',
      refreshReuseGraceSeconds: raw.AUTH_REFRESH_REUSE_GRACE_SECONDS,
    },
    corsAllowedOrigins: raw.CORS_ALLOWED_ORIGINS.split(',')
      .map((o) => o.trim().replace(/\/$/, ''))
      .filter(Boolean),
    contentDefaultGroupSlug: raw.CONTENT_DEFAULT_GROUP_SLUG,
    pagination: {
      defaultLimit: raw.PAGINATION_DEFAULT_LIMIT,
      maxLimit: raw.PAGINATION_MAX_LIMIT,
      maxOffset: raw.PAGINATION_MAX_OFFSET,
    },
    bootstrapAdmin:
      raw.BOOTSTRAP_ADMIN_EMAIL && raw.BOOTSTRAP_ADMIN_PASSWORD
        ? { email: raw.BOOTSTRAP_ADMIN_EMAIL.toLowerCase(), password: raw.BOOTSTRAP_ADMIN_PASSWORD }
        : undefined,
    seedDemo: raw.SEED_DEMO,
    mediaDir: raw.MEDIA_DIR,
    mediaMaxPixels: raw.MEDIA_MAX_PIXELS,
    trustProxy: raw.TRUST_PROXY ?? TRUST_NOTHING,
    httpRequestTimeoutSeconds: raw.HTTP_REQUEST_TIMEOUT_SECONDS,
    connections: {
      max: raw.HTTP_MAX_CONNECTIONS,
      perAddress: raw.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
      idleSeconds: raw.HTTP_IDLE_TIMEOUT_SECONDS ?? (behindProxy(raw.TRUST_PROXY ?? TRUST_NOTHING) || raw.BEHIND_TLS ? 65 : 10),
    },
    behindTls: raw.BEHIND_TLS,
    secureCookies: raw.BEHIND_TLS || (raw.APP_PUBLIC_URL ?? '').toLowerCase().startsWith('https:'),
    bodyLimits: { json: raw.HTTP_BODY_LIMIT_BYTES, upload: raw.HTTP_UPLOAD_LIMIT_BYTES },
    logLevel: raw.LOG_LEVEL ?? (isProduction ? 'info' : raw.NODE_ENV === 'test' ? 'silent' : 'debug'),
    webConcurrency: raw.WEB_CONCURRENCY ?? (isProduction ? availableParallelism() : 1),
    shutdownTimeoutSeconds: raw.SHUTDOWN_TIMEOUT_SECONDS,
    metrics: { token: raw.METRICS_TOKEN, port: raw.METRICS_PORT },
    rateLimits: {
      register: raw.RATE_LIMIT_REGISTER,
      login: raw.RATE_LIMIT_LOGIN,
      refresh: raw.RATE_LIMIT_REFRESH,
      passwordChange: raw.RATE_LIMIT_PASSWORD_CHANGE,
      submit: raw.RATE_LIMIT_SUBMIT,
      consoleLogin: raw.RATE_LIMIT_CONSOLE_LOGIN,
      consoleLoginAddress: raw.RATE_LIMIT_CONSOLE_LOGIN_ADDRESS,
    },
  }
}

let cached: AppConfig | undefined

/** The process configuration, parsed once from process.env. */
/**
 * For process entry points: the configuration, or one readable message on stderr and exit
 * code 1 (never a stack, never a value).
 */
export function configOrExit(env: NodeJS.ProcessEnv = process.env): AppConfig {
  try {
    return parseConfig(env)
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`)
      process.exit(1)
    }
    throw err
  }
}

export function getConfig(): AppConfig {
  if (!cached) {
    try {
      cached = parseConfig(process.env, undefined, {
        building: process.env.NEXT_PHASE === 'phase-production-build',
      })
    } catch (err) {
      if (err instanceof ConfigError) {
        // Refuse to start with one readable message; values are never printed.
        process.stderr.write(`${err.message}\n`)
        if (process.env.NODE_ENV === 'production') process.exit(1)
      }
      throw err
    }
  }
  return cached
}

/** Tests that change the environment between cases re-read it. */
export function resetConfig(): void {
  cached = undefined
}
