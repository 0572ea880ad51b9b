/**
 * The console wears the team's branding (issue 53.5), as the branding global says now (read per
 * request, kept per branding generation: src/services/branding): the logo and name on the
 * sign-in page (Payload's `graphics.Logo`), the icon in the header (`graphics.Icon`), the accent
 * on primary buttons and the queue's marks (`header`: a style of CSS variables), and the name in
 * the tab's title (../[[...segments]]/page.tsx). Without an edited value, each falls back to its
 * environment variable, as /meta does.
 */
import type { Payload } from 'payload'
import React from 'react'

import { brandingRecord } from '../../../../src/services/branding'
import { HEX, textOn } from './contrast'

type Props = { payload: Payload }

/** The accent as CSS variables, and the text colour that reads on it. */
function AccentStyle({ color }: { color: string }) {
  const accent = HEX.test(color) ? color : '#3b82f6'
  const css = `:root{--brand-accent:${accent};--brand-on-accent:${textOn(accent).color}}`
  return <style data-brand-accent={accent}>{css}</style>
}

export async function BrandLogo({ payload }: Props) {
  const brand = await brandingRecord(payload, '')
  return (
    <span className="brand-logo" data-brand-name={brand.name}>
      <AccentStyle color={brand.primaryColor} />
      {brand.logoUrl ? <img src={brand.logoUrl} alt="" className="brand-logo__image" /> : null}
      <span className="brand-logo__name">{brand.name}</span>
    </span>
  )
}

export async function BrandIcon({ payload }: Props) {
  const brand = await brandingRecord(payload, '')
  const image = brand.iconUrl || brand.logoUrl
  return (
    <span className="brand-icon" title={brand.name} data-brand-name={brand.name}>
      {image ? <img src={image} alt={brand.name} className="brand-icon__image" /> : <span className="brand-icon__initial" aria-label={brand.name}>{[...brand.name][0]?.toUpperCase() ?? '·'}</span>}
    </span>
  )
}

export async function BrandStyle({ payload }: Props) {
  const brand = await brandingRecord(payload, '')
  return <AccentStyle color={brand.primaryColor} />
}
