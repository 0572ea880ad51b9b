'use client'
/** A live preview of the branding as the extension will show it, from the unsaved form values. */
import { useFormFields } from '@payloadcms/ui'
import React from 'react'

const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/

export function BrandingPreview() {
  const name = useFormFields(([f]) => f.name?.value as string | undefined)
  const tagline = useFormFields(([f]) => f.tagline?.value as string | undefined)
  const color = useFormFields(([f]) => f.primaryColor?.value as string | undefined)
  const logoUrl = useFormFields(([f]) => f.logoUrl?.value as string | undefined)
  const accent = color && HEX.test(color) ? color : '#3b82f6'
  return (
    <div className="branding-preview" style={{ margin: '8px 0 24px', border: '1px solid var(--theme-elevation-150)', borderRadius: 8, overflow: 'hidden', maxWidth: 420 }}>
      <div style={{ background: accent, color: '#fff', padding: '12px 16px', display: 'flex', gap: 12, alignItems: 'center' }}>
        {logoUrl ? <img src={logoUrl} alt="" style={{ height: 28 }} /> : null}
        <strong>{name || 'App (from APP_NAME)'}</strong>
      </div>
      <div style={{ padding: '12px 16px' }}>
        <div style={{ opacity: 0.8 }}>{tagline || 'Tagline (from APP_TAGLINE)'}</div>
        <button type="button" style={{ marginTop: 10, background: accent, color: '#fff', border: 0, borderRadius: 4, padding: '6px 12px' }}>
          Submit a link
        </button>
      </div>
    </div>
  )
}
