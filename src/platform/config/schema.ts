import { z } from 'zod'

import { brandingUrlEnv, publicUrlEnv } from '../urlPolicy'
import { parseTrustProxy } from './trustProxy'

/** Booleans in the environment are spelled `true`/`false` (also `1`/`0`, `yes`/`no`). */
const envBoolean = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes')

const positiveInt = z.coerce.number().int().positive()
const nonNegativeInt = z.coerce.number().int().min(0)
const hexColor = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hex colour like #3b82f6')

/** One rate limit: `<points>/<seconds>`, e.g. `10/3600` = 10 requests an hour. */
const rateLimit = z
  .string()
  .regex(/^\d+\/\d+$/, 'must look like <requests>/<seconds>, e.g. 10/3600')
  .transform((v) => {
    const [points, duration] = v.split('/').map(Number)
    return { points: points!, durationSeconds: duration! }
  })

/**
 * The environment as the service reads it. Every variable of the spec's configuration
 * table, plus the operational ones (PAYLOAD_SECRET, bootstrap admin, seeding, proxy trust,
 * rate limits). Defaults are the spec's.
 */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: positiveInt.max(65535).default(3000),

  APP_NAME: z.string().min(1).default('App'),
  APP_SLUG: z
    .string()
    .regex(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/, 'must be a slug')
    .default('app'),
  APP_TAGLINE: z.string().default(''),
  APP_DESCRIPTION: z.string().default(''),
  APP_LOGO_URL: brandingUrlEnv.default(''),
  APP_ICON_URL: brandingUrlEnv.default(''),
  APP_PRIMARY_COLOR: hexColor.default('#3b82f6'),
  APP_PUBLIC_URL: publicUrlEnv.default(''),
  APP_VERSION: z.string().min(1).optional(),

  DATABASE_URI: z
    .string()
    .regex(/^(file:|mongodb:\/\/|mongodb\+srv:\/\/)/, 'must start with file:, mongodb:// or mongodb+srv://')
    .optional(),
  DB_NAME: z.string().min(1).optional(),
  /** MongoDB host[:port] list; with the root user/password and DB_NAME it builds the URI. */
  DATABASE_HOST: z.string().min(1).optional(),
  DATABASE_ROOT_USER: z.string().optional(),
  DATABASE_ROOT_PASSWORD: z.string().optional(),
  /** The replica set's name in the built URI (default rs0). */
  DATABASE_REPLICA_SET: z.string().min(1).optional(),
  /** Connect to DATABASE_HOST only, not to the members it advertises (a host outside the set's network). */
  DATABASE_DIRECT_CONNECTION: envBoolean.optional(),
  /** TLS to the members (a managed MongoDB); with DATABASE_TLS_CA_FILE, the CA that signed their certificates. */
  DATABASE_TLS: envBoolean.optional(),
  DATABASE_TLS_CA_FILE: z.string().min(1).optional(),

  PAYLOAD_SECRET: z.string().min(1).optional(),
  JWT_ACCESS_SECRET: z.string().optional(),
  JWT_REFRESH_SECRET: z.string().optional(),
  JWT_ACCESS_TTL_SECONDS: positiveInt.default(900),
  JWT_REFRESH_TTL_SECONDS: positiveInt.default(2592000),
  AUTH_ALLOW_SELF_REGISTRATION: envBoolean.optional(),
  /**
   * `test`: passwords hashed at argon2's lowest cost (1 MiB, one pass), for a test suite whose tests
   * are not about hashing. Honoured only with NODE_ENV=test; anywhere else every hash is full cost.
   */
  PASSWORD_HASH_COST: z.enum(['standard', 'test']).optional(),
  /** 0 (default): a rotated refresh token presented again revokes every token of the user. */
  AUTH_REFRESH_REUSE_GRACE_SECONDS: nonNegativeInt.max(300).default(0),

  CORS_ALLOWED_ORIGINS: z.string().default(''),
  CONTENT_DEFAULT_GROUP_SLUG: z.string().optional(),

  PAGINATION_DEFAULT_LIMIT: positiveInt.default(30),
  PAGINATION_MAX_LIMIT: positiveInt.default(200),
  PAGINATION_MAX_OFFSET: nonNegativeInt.default(10000),

  BOOTSTRAP_ADMIN_EMAIL: z.email().optional(),
  BOOTSTRAP_ADMIN_PASSWORD: z.string().min(12, 'must be at least 12 characters').optional(),
  SEED_DEMO: envBoolean.default(false),
  /** Where uploaded files are kept: a path, absolute or from the working directory. */
  MEDIA_DIR: z.string().min(1).default('data/media'),
  /**
   * The most pixels (width × height × frames) an uploaded image may declare: every browser that
   * shows it decodes all of them (4 bytes each). 50 million holds an 8K frame or a 48 MP photo.
   */
  MEDIA_MAX_PIXELS: positiveInt.max(1_000_000_000).default(50_000_000),
  TRUST_PROXY: z
    .string()
    .transform((v, ctx) => {
      const parsed = parseTrustProxy(v)
      if (parsed) return parsed
      ctx.addIssue({ code: 'custom', message: 'must be a hop count, true/false, or a comma list of proxy IPs/CIDRs' })
      return z.NEVER
    })
    .optional(),
  /** Headers and body must arrive within this; the server answers 408 otherwise. */
  HTTP_REQUEST_TIMEOUT_SECONDS: positiveInt.max(3600).default(30),
  /**
   * Connections one server process holds at once; past it a new one is closed at once. Default:
   * the process's descriptor limit less a reserve for the database, its log, uploads and the
   * metrics port (docs/operations.md), at most 10,000.
   */
  HTTP_MAX_CONNECTIONS: positiveInt.max(1_000_000).optional(),
  /** Connections one client address holds at once in one process (0: no cap); a trusted proxy's are not counted. */
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: nonNegativeInt.max(1_000_000).default(256),
  /**
   * How long a connection may stay open with no request in it, in seconds. Default: 10 with no
   * proxy in front, 65 behind one (TRUST_PROXY or BEHIND_TLS), longer than a load balancer's own idle time.
   */
  HTTP_IDLE_TIMEOUT_SECONDS: positiveInt.max(3600).optional(),
  /** The service is reached over HTTPS through a proxy or load balancer (also implied by an https APP_PUBLIC_URL): the console's cookie is Secure. */
  BEHIND_TLS: envBoolean.default(false),
  /**
   * The largest request body of any kind but an upload, in bytes (413 past it, on every route).
   * 128 KiB holds every body the API and the console send (the largest, a reorder of 1,000
   * slugs, ~70 KiB) and keeps parsing the worst of them (JSON of distinct keys, parsed twice on
   * Payload's REST) within a turn of the loop: docs/api.md.
   */
  HTTP_BODY_LIMIT_BYTES: positiveInt.max(64 * 1024 * 1024).default(128 * 1024),
  /** The largest multipart/form-data body (a file upload and its fields), in bytes. */
  HTTP_UPLOAD_LIMIT_BYTES: positiveInt.max(1024 * 1024 * 1024).default(10 * 1024 * 1024),
  /** Server processes sharing the port; default: one per CPU in production, 1 otherwise. */
  WEB_CONCURRENCY: positiveInt.max(256).optional(),
  /** How long a stopping server waits for requests in flight before it closes them. */
  SHUTDOWN_TIMEOUT_SECONDS: positiveInt.max(3600).default(10),
  /** Bearer token for GET /metrics on the main port. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Serves GET /metrics on 127.0.0.1:<port>, without a token. */
  METRICS_PORT: positiveInt.max(65535).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),

  RATE_LIMIT_REGISTER: rateLimit.prefault('5/3600'),
  RATE_LIMIT_LOGIN: rateLimit.prefault('10/3600'),
  RATE_LIMIT_REFRESH: rateLimit.prefault('60/3600'),
  RATE_LIMIT_PASSWORD_CHANGE: rateLimit.prefault('5/3600'),
  RATE_LIMIT_SUBMIT: rateLimit.prefault('30/3600'),
  /** Console sign-ins per account from one address (a team behind one office address each has its own). */
  RATE_LIMIT_CONSOLE_LOGIN: rateLimit.prefault('10/3600'),
  /** Console sign-ins per address, whichever accounts (a password guesser trying many accounts). */
  RATE_LIMIT_CONSOLE_LOGIN_ADDRESS: rateLimit.prefault('100/3600'),
})

export type RawEnv = z.infer<typeof envSchema>
