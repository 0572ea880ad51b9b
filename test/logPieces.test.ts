/**
 * How a process hands its log lines to the shared stdout (src/platform/logging): whole lines of ASCII
 * text (other characters as JSON escapes), in pieces of at most 4,096 bytes (PIPE_BUF) on a pipe,
 * so no other process's write can land inside one (a line longer than that goes alone), and of
 * up to 64 KiB to a regular file, which keeps any write whole.
 * test/ops/cluster.test.ts checks the cluster's output under load.
 */
import { describe, expect, it } from 'vitest'

import { asciiOnly, linePieces } from '../src/platform/logging'

const line = (n: number, fill = 'x') => `{"n":${n},"v":"${fill.repeat(150)}"}\n`

describe('linePieces', () => {
  it('cuts only after a newline, each piece at most 4096 bytes, and loses or adds nothing', () => {
    const text = Array.from({ length: 500 }, (_, i) => line(i)).join('')
    const pieces = linePieces(text)
    expect(pieces.length).toBeGreaterThan(10)
    for (const p of pieces) {
      expect(Buffer.byteLength(p)).toBeLessThanOrEqual(4096)
      expect(p.at(-1)).toBe('\n')
    }
    expect(pieces.join('')).toBe(text)
  })

  it('cuts to a larger size when asked (a regular file: 64 KiB), still only after a newline', () => {
    const text = Array.from({ length: 2000 }, (_, i) => line(i)).join('')
    const pieces = linePieces(text, 65536)
    expect(pieces.join('')).toBe(text)
    expect(pieces.length).toBeGreaterThan(1)
    for (const p of pieces) {
      expect(Buffer.byteLength(p)).toBeLessThanOrEqual(65536)
      expect(p.endsWith('\n')).toBe(true)
    }
    expect(Buffer.byteLength(pieces[0]!)).toBeGreaterThan(60000)
  })

  it('puts a line longer than 4096 bytes in a piece of its own', () => {
    const long = `{"stack":"${'y'.repeat(9000)}"}\n`
    expect(linePieces(line(1) + long + line(2))).toEqual([line(1), long, line(2)])
  })

  it('keeps a last line without its newline (nothing is lost)', () => {
    expect(linePieces('{"a":1}\n{"b":2}').join('')).toBe('{"a":1}\n{"b":2}')
    expect(linePieces('')).toEqual([])
  })
})

describe('asciiOnly', () => {
  it('escapes every character outside ASCII: one byte a character, the same JSON values', () => {
    const lines = Array.from({ length: 200 }, (_, i) => `${JSON.stringify({ n: i, title: 'Café 日本 😀 \u2028', plain: 'x' })}\n`).join('')
    const ascii = asciiOnly(lines)
    expect(Buffer.byteLength(ascii)).toBe(ascii.length)
    expect(/[^\x00-\x7f]/.test(ascii)).toBe(false)
    expect(ascii.split('\n').filter(Boolean).map((l) => JSON.parse(l))).toEqual(lines.split('\n').filter(Boolean).map((l) => JSON.parse(l)))
    // So pieces of it are within 4096 bytes, whole lines, too.
    for (const p of linePieces(ascii)) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(4096)
  })

  it('leaves ASCII text as it is', () => {
    const text = line(1) + line(2)
    expect(asciiOnly(text)).toBe(text)
  })
})
