import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildConfig, type CollectionConfig } from 'payload'
import sharp from 'sharp'

import { Branding } from './collections/Branding'
import { Channels } from './collections/Channels'
import { Content } from './collections/Content'
import { Facets } from './collections/Facets'
import { Groups } from './collections/Groups'
import { Media } from './collections/Media'
import { ModerationEvents } from './collections/ModerationEvents'
import { Notifications } from './collections/Notifications'
import { Platforms } from './collections/Platforms'
import { RefreshTokens } from './collections/RefreshTokens'
import { Roles } from './collections/Roles'
import { SlugClaims } from './collections/SlugClaims'
import { Surfaces } from './collections/Surfaces'
import { TagRenames } from './collections/TagRenames'
import { Tags } from './collections/Tags'
import { Users } from './collections/Users'
import { consoleEndpoints } from './endpoints/console'
import { formLimits } from './src/edge/multipartForm'
import { getConfig } from './src/platform/config'
import { engine } from './src/db/engine'
import { logger } from './src/platform/logging'
import { noEmail } from './src/platform/noEmail'
import { onStart } from './src/startup/startup'
import { withEditGuard, withGlobalEditGuard } from './collections/editGuard'
import { answerDatabaseErrors } from './src/services/databaseErrors'
import { withPreconditions } from './collections/preconditions'
import { withGlobalVersions, withVersions } from './collections/versions'
import { withRelationshipChecks } from './collections/relationshipChecks'
import { restrictPayloadCollections } from './access/payloadCollections'

const withConsoleEndpoints = (collections: CollectionConfig[]): CollectionConfig[] =>
  collections.map((c) => (consoleEndpoints[c.slug] ? { ...c, endpoints: [...(c.endpoints || []), ...consoleEndpoints[c.slug]!] } : c))

const dirname = path.dirname(fileURLToPath(import.meta.url))
const config = getConfig()

// Payload's own collections (document locks, migrations) get the project's rules once Payload has built them.
export default buildConfig({
  secret: config.payloadSecret,
  serverURL: config.branding.publicUrl || undefined,
  admin: {
    user: Users.slug,
    meta: { titleSuffix: ` · ${config.branding.name}` },
    importMap: { baseDir: dirname },
    // The default gravatar would call out to the internet.
    avatar: 'default',
    components: {
      // The team's branding, as the branding global says now (Brand.tsx).
      graphics: {
        Logo: '/app/(payload)/admin/_components/Brand#BrandLogo',
        Icon: '/app/(payload)/admin/_components/Brand#BrandIcon',
      },
      header: ['/app/(payload)/admin/_components/Brand#BrandStyle'],
      // The day's work first: the queue, the audit log, the taxonomy tree, before the collections.
      beforeNavLinks: ['/app/(payload)/admin/_components/ConsoleNavLinks#ConsoleNavLinks'],
      // The queue in one click (the header) or one key (q), from anywhere in the console.
      actions: ['/app/(payload)/admin/_components/QueueShortcut#QueueShortcut'],
      // Lists come back as they were left (filter, sort, page); content opens at what needs a decision.
      providers: ['/app/(payload)/admin/_components/ListMemory#ListMemory', '/app/(payload)/admin/_components/AccessibleControls#AccessibleControls'],
      // The landing page's tiles (pending, decisions chart, top tags, recent activity) above Payload's collection list.
      beforeDashboard: ['/app/(payload)/admin/_components/Dashboard#Dashboard'],
      views: {
        moderation: {
          Component: '/app/(payload)/admin/_components/ModerationQueueView#ModerationQueueView',
          path: '/moderation',
        },
        audit: {
          Component: '/app/(payload)/admin/_components/AuditLogView#AuditLogView',
          path: '/audit',
        },
        taxonomy: {
          Component: '/app/(payload)/admin/_components/TaxonomyTreeView#TaxonomyTreeView',
          path: '/taxonomy',
        },
      },
    },
  },
  // The console's custom endpoints (endpoints/console.ts) are attached here, by collection.
  collections: withRelationshipChecks(engine().withIds(withVersions(withPreconditions(withEditGuard(withConsoleEndpoints([
    Users,
    Roles,
    RefreshTokens,
    Facets,
    Media,
    Surfaces,
    Groups,
    Channels,
    Platforms,
    Tags,
    Content,
    Notifications,
    TagRenames,
    ModerationEvents,
    SlugClaims,
  ])))))),
  globals: withRelationshipChecks(withGlobalVersions(withGlobalEditGuard([Branding]))),
  db: engine().adapter(config.database),
  // No Payload jobs: follow-ups use the service's own outbox (src/jobs/followUps.ts), whose
  // claim is atomic across processes (Payload's runJobs finds, then updates: two runners can
  // take the same job).
  graphQL: { disable: true },
  // The database's passing conditions on Payload's own REST: 409 save again, 503 (src/services/databaseErrors).
  hooks: { afterError: [answerDatabaseErrors] },
  // Payload's CORS helper would add its own grants (and Allow-Credentials: true) to every
  // answer; the admin panel is same-origin and /api/v1 applies its own CORS (src/edge/cors).
  // Payload's type ('*' | CORSConfig | string[], default []) has no "off"; only a falsy value skips its helper.
  cors: '' as unknown as string[],
  sharp,
  // The limits the guard reads a form with (src/edge/multipartForm: parts, fields, sizes; the
  // file's size the Node server holds every multipart body to, src/edge/bodyLimit), and file
  // names decoded as UTF-8 as browsers send them: Payload's parser and the guard's agree.
  upload: { limits: formLimits(), defParamCharset: 'utf8' },
  telemetry: false,
  // No email is sent (src/platform/noEmail): said here rather than by a warning at every start.
  email: noEmail,
  logger: logger(),
  // Payload logs every error a request raised at `error`, with its stack, unless named here.
  // These are the caller's mistakes (4xx): one info line with the message, no stack.
  // (src/platform/logging also downgrades any 4xx error that reaches the logger, should a bundler
  // rename the error classes these names match.)
  loggingLevels: {
    AuthenticationError: 'info',
    FileUploadError: 'info',
    Forbidden: 'info',
    Locked: 'info',
    LockedAuth: 'info',
    MissingFile: 'info',
    NotFound: 'info',
    QueryError: 'info',
    UnverifiedEmail: 'info',
    ValidationError: 'info',
  },
  typescript: { autoGenerate: false, outputFile: path.resolve(dirname, 'payload-types.ts') },
  onInit: onStart,
}).then(restrictPayloadCollections)
