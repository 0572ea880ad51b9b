/**
 * How a process hands its log lines to the shared stdout (src/logging): whole lines, in pieces
 * of at most 4,096 bytes (PIPE_BUF), so no other process's write can land inside one; a line
 * longer than that goes alone. test/ops/cluster.test.ts checks the cluster's output under load.
 */
import { describe, expect, it } from 'vitest'

import { linePieces } from '../src/logging'

const line = (n: number, fill = 'x') => `{"n":${n},"v":"${fill.repeat(150)}"}\n`

describe('linePieces', () => {
  it('cuts only after a newline, each piece at most 4096 bytes, and loses or adds nothing', () => {
    const text = Array.from({ length: 500 }, (_, i) => line(i)).join('')
    const pieces = linePieces(text)
    expect(pieces.length).toBeGreaterThan(10)
    for (const p of pieces) {
      expect(p.length).toBeLessThanOrEqual(4096)
      expect(p.at(-1)).toBe(0x0a)
    }
    expect(Buffer.concat(pieces).toString('utf8')).toBe(text)
  })

  it('counts bytes, not characters: lines of multi-byte text stay within 4096 bytes and whole', () => {
    const text = Array.from({ length: 200 }, (_, i) => line(i, 'é日')).join('')
    const pieces = linePieces(text)
    for (const p of pieces) {
      expect(p.length).toBeLessThanOrEqual(4096)
      expect(p.at(-1)).toBe(0x0a)
      expect(() => JSON.parse(p.toString('utf8').trim().split('\n').at(-1)!)).not.toThrow()
    }
    expect(Buffer.concat(pieces).toString('utf8')).toBe(text)
  })

  it('puts a line longer than 4096 bytes in a piece of its own', () => {
    const long = `{"stack":"${'y'.repeat(9000)}"}\n`
    const pieces = linePieces(line(1) + long + line(2))
    expect(pieces.map((p) => p.toString('utf8'))).toEqual([line(1), long, line(2)])
  })

  it('keeps a last line without its newline (nothing is lost)', () => {
    expect(Buffer.concat(linePieces('{"a":1}\n{"b":2}')).toString('utf8')).toBe('{"a":1}\n{"b":2}')
    expect(linePieces('')).toEqual([])
  })
})
