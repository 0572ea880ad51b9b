/** Colours on the brand's accent: the text colour that reads best on it (WCAG contrast). */
export const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/

/** WCAG's relative luminance of a hex colour. */
function luminance(hex: string): number {
  const six = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c).join('') : hex.slice(1)
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(six.slice(i, i + 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
}

/** The text colour (white or black) that reads best on the accent, and its contrast ratio. */
export function textOn(accent: string): { color: string; ratio: number } {
  const l = luminance(accent)
  const onWhite = 1.05 / (l + 0.05)
  const onBlack = (l + 0.05) / 0.05
  return onWhite >= onBlack ? { color: '#fff', ratio: onWhite } : { color: '#000', ratio: onBlack }
}
