import { randomBytes } from 'node:crypto'

/** 24-hex ids shaped like MongoDB ObjectIds: seconds, then 8 random bytes. */
export function newHexId(): string {
  const seconds = Math.floor(Date.now() / 1000).toString(16).padStart(8, '0')
  return seconds + randomBytes(8).toString('hex')
}

/** For bulk inserts: one random prefix per batch and a counter, still unique and 24-hex. */
export function hexIdFactory(): () => string {
  const seconds = Math.floor(Date.now() / 1000).toString(16).padStart(8, '0')
  const prefix = randomBytes(4).toString('hex')
  let n = 0
  return () => seconds + prefix + (n++).toString(16).padStart(8, '0')
}
