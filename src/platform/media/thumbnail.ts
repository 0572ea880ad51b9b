/**
 * Renders a content item's thumbnail offline: a card in its group's colour with the title,
 * as a PNG. No network, no external service: sharp rasterizes an SVG.
 */
import sharp from 'sharp'

export const THUMBNAIL_SIZE = { width: 640, height: 360 }

const escapeXml = (s: string) =>
  s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!)

/** Breaks a title into at most `maxLines` lines of about `width` characters, with an ellipsis. */
export function wrapTitle(title: string, width = 24, maxLines = 3): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of title.trim().split(/\s+/)) {
    const candidate = line ? `${line} ${word}` : word
    if (candidate.length <= width || !line) line = candidate.slice(0, width * 2)
    else {
      lines.push(line)
      line = word
    }
  }
  if (line) lines.push(line)
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines)
    kept[maxLines - 1] = `${kept[maxLines - 1]!.replace(/\s*\S*$/, '')}…`
    return kept
  }
  return lines
}

/** Black or white text, whichever reads better on the background. */
function textColor(hex: string): string {
  const h = hex.replace('#', '')
  const full = h.length === 3 ? h.split('').map((c) => c + c).join('') : h.padEnd(6, '0')
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255)
  const luminance = 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
  return luminance > 0.6 ? '#111827' : '#ffffff'
}

export async function renderThumbnail({ title, color }: { title: string; color: string }): Promise<Buffer> {
  const background = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(color) ? color : '#6b7280'
  const fg = textColor(background)
  const lines = wrapTitle(title)
  const { width, height } = THUMBNAIL_SIZE
  const lineHeight = 56
  const top = height / 2 - ((lines.length - 1) * lineHeight) / 2 + 16
  const text = lines
    .map((l, i) => `<text x="48" y="${top + i * lineHeight}" font-family="DejaVu Sans, sans-serif" font-size="44" font-weight="bold" fill="${fg}">${escapeXml(l)}</text>`)
    .join('')
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${background}"/>${text}</svg>`
  return sharp(Buffer.from(svg)).png().toBuffer()
}
