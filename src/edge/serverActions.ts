/**
 * Next's server actions (the console's one server function: `POST` with a `Next-Action`
 * header) at the edge. Next answers a call whose arguments it cannot decode with a 500, and the
 * console's server function runs only for a signed-in user; so, before Next sees it:
 * - a call without the console's session cookie is 401 `auth.missing_token` (the sign-in pages
 *   call no server function);
 * - a plain-text call (how a server action's arguments travel when they hold no file) must be a
 *   JSON array: its body is held back (within the body limit) until it has arrived whole and been
 *   read, then handed on unchanged; anything else is 400 `validation.failed`.
 * A decodable call that is still refused answers 401/403/404 from the server function itself
 * (app/(payload)/serverFunction.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

import { hasSessionCookie } from './crossOrigin'
import { NodeHeaderReader } from './headers'
import { type Refusal, writeRefusal } from './refusal'

const NO_SESSION: Refusal = { status: 401, code: 'auth.missing_token', message: 'Sign in to the console first.' }
const NOT_A_CALL: Refusal = {
  status: 400,
  code: 'validation.failed',
  message: 'A server action call carries its arguments as a JSON array.',
  details: [{ field: '(body)', constraint: 'json' }],
}

export const isServerActionCall = (req: IncomingMessage): boolean => req.method === 'POST' && req.headers['next-action'] !== undefined

/**
 * Checks a server action call: `refused` (answered here), `go` (hand it on now), or `held`
 * (`next` hands it on once its held-back body has arrived and been read; a body limit set up
 * after this counts the bytes before they are held).
 */
export function checkServerAction(req: IncomingMessage, res: ServerResponse, next: () => void): 'refused' | 'go' | 'held' {
  if (!hasSessionCookie(new NodeHeaderReader(req.headers))) {
    writeRefusal(req, res, NO_SESSION, true)
    return 'refused'
  }
  if (!req.headers['content-type']?.toLowerCase().startsWith('text/plain')) return 'go'
  // Held back: what the parser pushes is kept here, and pushed on to the stream's reader once read.
  const chunks: Buffer[] = []
  const push = req.push
  req.push = function holdBack(chunk: unknown): boolean {
    if (chunk !== null) {
      chunks.push(chunk as Buffer)
      return true
    }
    req.push = push
    let call: unknown
    try {
      call = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    } catch {
      call = undefined
    }
    if (!Array.isArray(call)) {
      writeRefusal(req, res, NOT_A_CALL, true)
      return false
    }
    for (const piece of chunks) push.call(req, piece)
    push.call(req, null)
    next()
    return false
  }
  return 'held'
}
