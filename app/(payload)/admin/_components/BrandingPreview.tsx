'use client'
/** A live preview of the branding as the extension will show it, from the unsaved form values. */
import { useFormFields } from '@payloadcms/ui'
import React from 'react'

const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/

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
function textOn(accent: string): { color: string; ratio: number } {
  const l = luminance(accent)
  const onWhite = 1.05 / (l + 0.05)
  const onBlack = (l + 0.05) / 0.05
  return onWhite >= onBlack ? { color: '#fff', ratio: onWhite } : { color: '#000', ratio: onBlack }
}

export function BrandingPreview() {
  const name = useFormFields(([f]) => f.name?.value as string | undefined)
  const tagline = useFormFields(([f]) => f.tagline?.value as string | undefined)
  const color = useFormFields(([f]) => f.primaryColor?.value as string | undefined)
  const logoUrl = useFormFields(([f]) => f.logoUrl?.value as string | undefined)
  const accent = color && HEX.test(color) ? color : '#3b82f6'
  // Text on the accent in whichever of white and black reads better (WCAG contrast).
  const text = textOn(accent)
  return (
    <div className="branding-preview" style={{ margin: '8px 0 24px', border: '1px solid var(--theme-elevation-150)', borderRadius: 8, overflow: 'hidden', maxWidth: 420 }}>
      <div style={{ background: accent, color: text.color, padding: '12px 16px', display: 'flex', gap: 12, alignItems: 'center' }}>
        {logoUrl ? <img src={logoUrl} alt="" style={{ height: 28 }} /> : null}
        <strong>{name || 'App (from APP_NAME)'}</strong>
      </div>
      <div style={{ padding: '12px 16px' }}>
        <div style={{ color: 'var(--theme-elevation-650)' }}>{tagline || 'Tagline (from APP_TAGLINE)'}</div>
        <button type="button" style={{ marginTop: 10, background: accent, color: text.color, border: 0, borderRadius: 4, padding: '6px 12px' }}>
          Submit a link
        </button>
        {text.ratio < 4.5 ? (
          <p role="note" style={{ marginTop: 8, color: 'var(--theme-elevation-650)' }}>
            Text on this colour reaches a contrast of {text.ratio.toFixed(1)}:1; WCAG AA asks for 4.5:1.
          </p>
        ) : null}
      </div>
    </div>
  )
}
