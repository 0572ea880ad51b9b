/**
 * The console's server function (Payload's one server action, which its admin panel calls for
 * form state, lists and documents), answered with the status an HTTP client expects when the
 * call is refused, never a 500: a call that is not `{ name, args }` naming a server function is
 * 404; an error Payload marks 401, 403 or 404 keeps its status; any other failure of a caller
 * with no console session (made-up arguments from anyone) is 401. A signed-in caller's other
 * failures are the server's (500, logged). Next answers the status of `unauthorized()`,
 * `forbidden()` and `notFound()` thrown by a server action (`experimental.authInterrupts`).
 */
import { headers as requestHeaders } from 'next/headers'
import { forbidden, notFound, unauthorized } from 'next/navigation'
import { getPayload, type SanitizedConfig } from 'payload'

/** Payload's server functions (@payloadcms/next's handleServerFunctions); the project adds none. */
const SERVER_FUNCTIONS = new Set([
  'copy-data-from-locale',
  'form-state',
  'get-default-layout',
  'get-folder-results-component-and-data',
  'get-upcoming-scheduled-publish',
  'render-document',
  'render-document-slots',
  'render-field',
  'render-list',
  'render-widget',
  'schedule-publish',
  'slugify',
  'table-state',
])

const isCall = (args: unknown): args is { name: string; args: Record<string, unknown> } =>
  typeof args === 'object' &&
  args !== null &&
  typeof (args as { name?: unknown }).name === 'string' &&
  SERVER_FUNCTIONS.has((args as { name: string }).name) &&
  typeof (args as { args?: unknown }).args === 'object' &&
  (args as { args?: unknown }).args !== null

const statusOf = (err: unknown): unknown => (typeof err === 'object' && err !== null ? (err as { status?: unknown }).status : undefined)

/** Whether the request carries a valid console session. */
async function signedIn(config: Promise<SanitizedConfig>): Promise<boolean> {
  const payload = await getPayload({ config })
  const { user } = await payload.auth({ headers: await requestHeaders() })
  return !!user
}

export async function answerServerFunction<T>(args: unknown, config: Promise<SanitizedConfig>, run: () => Promise<T>): Promise<T> {
  if (!isCall(args)) notFound()
  try {
    return await run()
  } catch (err) {
    const status = statusOf(err)
    if (status === 401) unauthorized()
    if (status === 403) forbidden()
    if (status === 404) notFound()
    if (!(await signedIn(config))) unauthorized()
    throw err
  }
}
