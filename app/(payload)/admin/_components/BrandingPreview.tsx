'use client'
/** A live preview of the branding as the extension will show it, from the unsaved form values. */
import { useFormFields } from '@payloadcms/ui'
import React from 'react'

import { HEX, textOn } from './contrast'

export function BrandingPreview() {
  const name = useFormFields(([f]) => f.name?.value as string | undefined)
  const tagline = useFormFields(([f]) => f.tagline?.value as string | undefined)
  const color = useFormFields(([f]) => f.primaryColor?.value as string | undefined)
  const logoUrl = useFormFields(([f]) => f.logoUrl?.value as string | undefined)
  const logo = useFormFields(([f]) => f.logo?.value as string | { url?: string } | null | undefined)
  // An uploaded logo (its id, once chosen: its file is served by id's record) wins over a URL, as on /meta.
  const uploaded = typeof logo === 'object' && logo?.url ? logo.url : typeof logo === 'string' && logo ? `/api/media/${logo}` : undefined
  const accent = color && HEX.test(color) ? color : '#3b82f6'
  // Text on the accent in whichever of white and black reads better (WCAG contrast).
  const text = textOn(accent)
  return (
    <div className="branding-preview" style={{ margin: '8px 0 24px', border: '1px solid var(--theme-elevation-150)', borderRadius: 8, overflow: 'hidden', maxWidth: 420 }}>
      <div style={{ background: accent, color: text.color, padding: '12px 16px', display: 'flex', gap: 12, alignItems: 'center' }}>
        {uploaded ? <LogoOf media={uploaded} /> : logoUrl ? <img src={logoUrl} alt="" style={{ height: 28 }} /> : null}
        <strong>{name || 'App (the default name)'}</strong>
      </div>
      <div style={{ padding: '12px 16px' }}>
        <div style={{ color: 'var(--theme-elevation-650)' }}>{tagline || 'Your tagline'}</div>
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

/** An uploaded logo: a media record's URL as is, or its id's record read for its file's URL. */
function LogoOf({ media }: { media: string }) {
  const [src, setSrc] = React.useState(media.startsWith('/api/media/') && !media.includes('/file/') ? undefined : media)
  React.useEffect(() => {
    if (src !== undefined) return
    let live = true
    fetch(`${media}?depth=0`, { credentials: 'same-origin' })
      .then((r) => (r.ok ? r.json() : null))
      .then((doc: { url?: string } | null) => live && doc?.url && setSrc(doc.url))
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [media, src])
  return src ? <img src={src} alt="" style={{ height: 28 }} /> : null
}
