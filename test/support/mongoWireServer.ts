/**
 * A scripted MongoDB wire server: it answers the driver's handshake as a one-member replica
 * set primary and every other command from a script, and records each command the driver
 * sends (with its session id, transaction number and transaction flags). It checks what the
 * driver SENDS (sessions, transactions, retries); it stores nothing and is never a database.
 *
 * Written here because the npm package `mongodb-mock-server` (2.0.1) predates OP_MSG, the
 * only message format driver 6 uses after the handshake. This speaks OP_QUERY/OP_REPLY for
 * the legacy handshake and OP_MSG for everything else; no compression, no TLS.
 */
import net from 'node:net'

import type { Payload } from 'payload'
import { afterAll, beforeAll, beforeEach } from 'vitest'

import { BSON, ObjectId, type Document } from 'mongodb'

const OP_REPLY = 1
const OP_QUERY = 2004
const OP_MSG = 2013

export type SentCommand = {
  name: string
  body: Document
  /** Hex of the session id (lsid.id), when the command carried one. */
  session?: string
  txnNumber?: number
  startTransaction?: boolean
}

/** Answers a command: a reply document (or a promise of one), or undefined for the default answer. */
export type Script = (command: SentCommand, sent: readonly SentCommand[]) => Document | Promise<Document> | undefined

export type WireServerOptions = {
  /** The replica set name `hello` reports; null: a standalone server (no setName). */
  setName?: string | null
}

export type WireServer = {
  port: number
  /** `mongodb://127.0.0.1:<port>/<db>?replicaSet=<setName>&...`: fast selection, no retries of reads. */
  uri(db: string, extra?: Record<string, string>): string
  /** Every command after the handshake, in arrival order (heartbeats excluded); a test may clear it. */
  sent: SentCommand[]
  /** The same, from the server's start, never cleared (what a client sent while it connected). */
  log: readonly SentCommand[]
  /** The commands named `name`. */
  named(name: string): SentCommand[]
  /**
   * Change streams (an `aggregate` opening with `$changeStream`) are answered as a server does:
   * an open cursor with a resume token; each getMore waits up to 30 ms for events pushed here
   * (`_id`, the resume token, is added), or answers `fail` once, or `end`s the cursor.
   */
  changes: {
    push(event: Document): void
    fail(reply: Document): void
    /**
     * The next getMore of each open stream answers its batch with cursor id 0: the server closed
     * the cursor (as after an invalidate, whose event a `$match` may have filtered out).
     */
    end(): void
    /** The resume tokens handed out so far, in order. */
    readonly tokens: string[]
  }
  close(): Promise<void>
}

const HANDSHAKE = new Set(['hello', 'ismaster', 'isMaster'])

/** A server error reply, as mongod sends it. */
export function serverError(code: number, codeName: string, errorLabels: string[] = [], errmsg = `${codeName} (scripted)`): Document {
  return { ok: 0, code, codeName, errmsg, ...(errorLabels.length ? { errorLabels } : {}) }
}

/** A complete cursor reply (the driver reads the cursor id as an int64). */
export function cursorReply(ns: string, firstBatch: Document[]): Document {
  return { ok: 1, cursor: { id: BSON.Long.ZERO, ns, firstBatch } }
}

/** Default answers: writes succeed, reads find nothing, everything else is ok. */
function defaultReply(command: SentCommand): Document {
  const { name, body } = command
  const ns = `${String(body.$db)}.${String(body[name])}`
  switch (name) {
    case 'insert':
      return { ok: 1, n: Array.isArray(body.documents) ? body.documents.length : 1 }
    case 'update':
      return { ok: 1, n: 1, nModified: 1 }
    case 'delete':
      return { ok: 1, n: 1 }
    case 'find':
    case 'aggregate':
    case 'listIndexes':
      return cursorReply(ns, [])
    case 'listCollections':
      return cursorReply(`${String(body.$db)}.$cmd.listCollections`, [])
    case 'findAndModify':
      return { ok: 1, value: null, lastErrorObject: { n: 0, updatedExisting: false } }
    case 'count':
      return { ok: 1, n: 0 }
    default:
      return { ok: 1 }
  }
}

function describe(body: Document): SentCommand {
  const name = Object.keys(body)[0] ?? ''
  const lsid = body.lsid as { id?: { toString(encoding: string): string; buffer?: Uint8Array } } | undefined
  const sessionId = lsid?.id?.buffer ? Buffer.from(lsid.id.buffer).toString('hex') : undefined
  const txn = body.txnNumber as { toNumber?: () => number } | number | undefined
  return {
    name,
    body,
    ...(sessionId ? { session: sessionId } : {}),
    ...(txn !== undefined ? { txnNumber: typeof txn === 'number' ? txn : Number(txn.toNumber?.()) } : {}),
    ...(body.startTransaction === true ? { startTransaction: true } : {}),
  }
}

function cString(buf: Buffer, at: number): [string, number] {
  const end = buf.indexOf(0, at)
  return [buf.toString('utf8', at, end), end + 1]
}

/** The command document of one OP_MSG (kind 0 body, kind 1 sequences folded in). */
function parseMsg(message: Buffer): Document {
  let at = 20 // header (16) + flagBits (4)
  let body: Document = {}
  const sequences: Record<string, Document[]> = {}
  const flags = message.readUInt32LE(16)
  const end = flags & 1 ? message.length - 4 : message.length // checksum present
  while (at < end) {
    const kind = message[at++]
    if (kind === 0) {
      const size = message.readInt32LE(at)
      body = BSON.deserialize(message.subarray(at, at + size))
      at += size
    } else {
      const size = message.readInt32LE(at)
      const sectionEnd = at + size
      const [identifier, docsAt] = cString(message, at + 4)
      const docs: Document[] = []
      for (let d = docsAt; d < sectionEnd; ) {
        const docSize = message.readInt32LE(d)
        docs.push(BSON.deserialize(message.subarray(d, d + docSize)))
        d += docSize
      }
      sequences[identifier] = docs
      at = sectionEnd
    }
  }
  return { ...body, ...sequences }
}

function header(length: number, requestId: number, responseTo: number, opCode: number): Buffer {
  const h = Buffer.alloc(16)
  h.writeInt32LE(length, 0)
  h.writeInt32LE(requestId, 4)
  h.writeInt32LE(responseTo, 8)
  h.writeInt32LE(opCode, 12)
  return h
}

let nextRequestId = 1

function msgReply(responseTo: number, doc: Document): Buffer {
  const body = Buffer.from(BSON.serialize(doc))
  const payload = Buffer.concat([Buffer.alloc(4), Buffer.from([0]), body])
  return Buffer.concat([header(16 + payload.length, nextRequestId++, responseTo, OP_MSG), payload])
}

function opReply(responseTo: number, doc: Document): Buffer {
  const body = Buffer.from(BSON.serialize(doc))
  const fields = Buffer.alloc(20) // responseFlags, cursorID (8), startingFrom, numberReturned
  fields.writeInt32LE(1, 16)
  return Buffer.concat([header(16 + 20 + body.length, nextRequestId++, responseTo, OP_REPLY), fields, body])
}

export async function startWireServer(script: Script = () => undefined, options: WireServerOptions = {}): Promise<WireServer> {
  const setName = options.setName === undefined ? 'rs0' : options.setName
  const sent: SentCommand[] = []
  const log: SentCommand[] = []
  const sockets = new Set<net.Socket>()
  const electionId = new ObjectId('7fffffff0000000000000001')
  let port = 0
  let connectionId = 0

  const helloReply = (): Document => {
    const me = `127.0.0.1:${port}`
    return {
      ok: 1, helloOk: true, ismaster: true, isWritablePrimary: true,
      maxBsonObjectSize: 16 * 1024 * 1024, maxMessageSizeBytes: 48_000_000, maxWriteBatchSize: 100_000,
      localTime: new Date(), logicalSessionTimeoutMinutes: 30, connectionId: ++connectionId,
      minWireVersion: 0, maxWireVersion: 21,
      ...(setName ? { setName, setVersion: 1, electionId, hosts: [me], primary: me, me } : {}),
    }
  }

  // Change streams: each open cursor's queued events, and a failure for its next getMore.
  type ChangeCursor = { events: Document[]; failure?: Document; ended?: boolean }
  const changeCursors = new Map<string, ChangeCursor>()
  let cursorIds = 1000
  const tokens: string[] = []
  const nextToken = () => {
    const token = `token-${tokens.length + 1}`
    tokens.push(token)
    return { _data: token }
  }
  const changeStreamReply = async (command: SentCommand): Promise<Document | undefined> => {
    const { name, body } = command
    const pipeline = body.pipeline as Document[] | undefined
    if (name === 'aggregate' && pipeline?.[0]?.$changeStream) {
      const id = BSON.Long.fromNumber(cursorIds++)
      changeCursors.set(id.toString(), { events: [] })
      return { ok: 1, cursor: { id, ns: `${String(body.$db)}.$cmd.aggregate`, firstBatch: [], postBatchResumeToken: nextToken() } }
    }
    const cursor = name === 'getMore' ? changeCursors.get(String(body.getMore)) : undefined
    if (cursor) {
      for (let waited = 0; cursor.events.length === 0 && cursor.failure === undefined && !cursor.ended && waited < 30; waited += 5) {
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
      if (cursor.failure) {
        changeCursors.delete(String(body.getMore))
        return cursor.failure
      }
      const nextBatch = cursor.events.splice(0).map((event) => ({ _id: nextToken(), ...event }))
      const postBatchResumeToken = nextBatch.length ? nextBatch.at(-1)!._id : nextToken()
      if (cursor.ended) changeCursors.delete(String(body.getMore))
      const id = cursor.ended ? BSON.Long.ZERO : BSON.Long.fromValue(body.getMore as number)
      return { ok: 1, cursor: { id, ns: `${String(body.$db)}.$cmd.aggregate`, nextBatch, postBatchResumeToken } }
    }
    if (name === 'killCursors') {
      for (const id of (body.cursors as unknown[]) ?? []) changeCursors.delete(String(id))
      return { ok: 1, cursorsKilled: body.cursors ?? [] }
    }
    return undefined
  }

  const answer = async (body: Document): Promise<Document> => {
    const name = Object.keys(body)[0] ?? ''
    if (HANDSHAKE.has(name)) return helloReply()
    const command = describe(body)
    sent.push(command)
    log.push(command)
    return (await script(command, sent)) ?? (await changeStreamReply(command)) ?? defaultReply(command)
  }

  const server = net.createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => undefined)
    let pending = Buffer.alloc(0)
    let busy = false
    // One message at a time per connection, as a server answers them (a getMore may wait).
    const pump = async () => {
      if (busy) return
      busy = true
      try {
        while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
          const length = pending.readInt32LE(0)
          const message = pending.subarray(0, length)
          pending = pending.subarray(length)
          const requestId = message.readInt32LE(4)
          const opCode = message.readInt32LE(12)
          if (opCode === OP_MSG) {
            socket.write(msgReply(requestId, await answer(parseMsg(message))))
          } else if (opCode === OP_QUERY) {
            const [, afterName] = cString(message, 20)
            const queryAt = afterName + 8 // numberToSkip, numberToReturn
            const query = BSON.deserialize(message.subarray(queryAt, queryAt + message.readInt32LE(queryAt)))
            socket.write(opReply(requestId, await answer(query)))
          } else {
            socket.destroy()
          }
        }
      } finally {
        busy = false
      }
    }
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk])
      void pump()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  port = typeof address === 'object' && address ? address.port : 0

  return {
    port,
    sent,
    log,
    named: (name) => sent.filter((c) => c.name === name),
    changes: {
      push: (event) => {
        for (const cursor of changeCursors.values()) cursor.events.push(event)
      },
      fail: (reply) => {
        for (const cursor of changeCursors.values()) cursor.failure = reply
      },
      end: () => {
        for (const cursor of changeCursors.values()) cursor.ended = true
      },
      tokens,
    },
    uri(db, extra = {}) {
      const params = new URLSearchParams({
        ...(setName ? { replicaSet: setName } : {}),
        serverSelectionTimeoutMS: '2000',
        heartbeatFrequencyMS: '60000',
        ...extra,
      })
      return `mongodb://127.0.0.1:${port}/${db}?${params}`
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/**
 * The real Payload (mongoose adapter; its start-up hook not run: a test calls what it checks) and
 * the real driver on a scripted wire server, for one test file. DATABASE_URI names the server
 * before Payload and the engine load (the engine is chosen when src/db/engine loads).
 */
export async function payloadOnWire(script?: Script): Promise<{ server: WireServer; payload: Payload }> {
  const server = await startWireServer(script)
  process.env.DATABASE_URI = server.uri('wire')
  const { getPayload } = await import('payload')
  const config = await (await import('../../payload.config')).default
  return { server, payload: await getPayload({ config, disableOnInit: true }) }
}

/** A test file's scripted server and real Payload; `script` answers before the server's defaults. */
export type WireFile = { server: WireServer; payload: Payload; script: Script }

/**
 * One test file on the wire: the server and Payload opened before its tests (payloadOnWire) and
 * closed after; the script and the command log reset before each test.
 */
export function wireFile(): WireFile {
  const file = { script: () => undefined } as unknown as WireFile
  beforeAll(async () => {
    Object.assign(file, await payloadOnWire((command, sent) => file.script(command, sent)))
  })
  afterAll(async () => {
    await file.payload?.destroy()
    await file.server?.close()
  })
  beforeEach(() => {
    file.script = () => undefined
    file.server.sent.length = 0
  })
  return file
}

/** The change stream is open (its first resume token seen): generations are live, not blind. */
export async function waitForLiveFeed(payload: Payload): Promise<void> {
  const { generation } = await import('../../src/db/engine')
  const { generationsOf } = await import('../../src/db/freshness')
  for (let i = 0; i < 200; i++) {
    generation(payload, 'content')
    if (!generationsOf(payload.db).isBlind) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error('the change feed never opened')
}
