import sharp from 'sharp'
import { describe, expect, it } from 'vitest'

import { renderThumbnail, THUMBNAIL_SIZE, wrapTitle } from '../../src/platform/media/thumbnail'

describe('thumbnail rendering', () => {
  it('renders a PNG of the thumbnail size in the group colour', async () => {
    const png = await renderThumbnail({ title: 'Understanding <React> & "Hooks"', color: '#2563eb' })
    const meta = await sharp(png).metadata()
    expect(meta.format).toBe('png')
    expect({ width: meta.width, height: meta.height }).toEqual(THUMBNAIL_SIZE)
    // The top-left corner is background: the group colour.
    const { data } = await sharp(png).extract({ left: 2, top: 2, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true })
    expect([...data.subarray(0, 3)]).toEqual([0x25, 0x63, 0xeb])
  })

  it('draws the title: the image is not a flat colour', async () => {
    const png = await renderThumbnail({ title: 'Readable title', color: '#111111' })
    const stats = await sharp(png).stats()
    expect(stats.channels[0]!.max).toBeGreaterThan(200) // white text on a dark card
  })

  it('falls back to grey for an invalid colour', async () => {
    const png = await renderThumbnail({ title: 'x', color: 'javascript:alert(1)' })
    const { data } = await sharp(png).extract({ left: 0, top: 0, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true })
    expect([...data.subarray(0, 3)]).toEqual([0x6b, 0x72, 0x80])
  })

  it('wraps long titles into at most three lines with an ellipsis', () => {
    expect(wrapTitle('short')).toEqual(['short'])
    const lines = wrapTitle('a fairly long title that goes on and on about many different things indeed')
    expect(lines).toHaveLength(3)
    expect(lines[2]!.endsWith('…')).toBe(true)
    expect(lines.every((l) => l.length <= 25)).toBe(true)
  })
})
