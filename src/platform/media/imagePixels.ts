/**
 * How many pixels an uploaded image declares, read from its header by sharp (no pixel is
 * decoded; sharp reads on libuv's thread pool, not the event loop). A 389 KB PNG may declare
 * 20,000 × 20,000 pixels: every browser that shows it decodes 1.6 GB. SVGs are drawn at the size
 * they are shown, so they are not counted (and are not handed to an SVG parser here).
 */
import sharp from 'sharp'

export type DeclaredPixels = { width: number; height: number; frames: number; pixels: number }

const VECTOR = /(?:svg|xml)/i

/** The image's declared size, or null: not a raster image sharp can read (Payload's own checks judge those). */
export async function declaredPixels(data: Uint8Array, mimetype: string, name: string): Promise<DeclaredPixels | null> {
  if (VECTOR.test(mimetype) || /\.(?:svgz?|xml)$/i.test(name)) return null
  try {
    const meta = await sharp(data, { limitInputPixels: false, failOn: 'none' }).metadata()
    if (!meta.width || !meta.height) return null
    const frames = Math.max(1, meta.pages ?? 1)
    // An animation's frames are as tall as its page (sharp reports the first page's height).
    const height = meta.pageHeight ?? meta.height
    return { width: meta.width, height, frames, pixels: meta.width * height * frames }
  } catch {
    return null
  }
}
