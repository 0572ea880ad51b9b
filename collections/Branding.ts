import type { GlobalConfig } from 'payload'

import { allowIf, consoleRead } from '../access/collectionAccess'
import { globalWriteHook } from './hooks/domainWrites'
import { TEXT_LIMITS, textValidator } from '../src/platform/text'
import { brandingUrlValidator, publicUrlValidator } from '../src/platform/urlPolicy'
import { COLOR_PICKER } from './taxonomyFields'

/**
 * Branding edited in the admin panel. Empty fields fall back to their environment variables
 * (src/services/branding). selfRegistration is not here: it always reflects the environment.
 */
export const Branding: GlobalConfig = {
  slug: 'branding',
  admin: { group: 'Branding' },
  access: { read: consoleRead, update: allowIf('catalog.manage') },
  // The branding record (/meta) is cached per branding change counter, moved in the write's transaction.
  hooks: { afterChange: [globalWriteHook('branding')] },
  fields: [
    { name: 'preview', type: 'ui', admin: { components: { Field: '/app/(payload)/admin/_components/BrandingPreview#BrandingPreview' } } },
    { name: 'name', type: 'text', validate: textValidator(TEXT_LIMITS.brandingName), admin: { description: 'Empty: APP_NAME' } },
    { name: 'tagline', type: 'text', validate: textValidator(TEXT_LIMITS.tagline), admin: { description: 'Empty: APP_TAGLINE' } },
    { name: 'description', type: 'textarea', validate: textValidator(TEXT_LIMITS.brandingDescription), admin: { description: 'Empty: APP_DESCRIPTION' } },
    {
      type: 'row',
      fields: [
        { name: 'logo', type: 'upload', relationTo: 'media' },
        {
          name: 'logoUrl',
          type: 'text',
          validate: brandingUrlValidator,
          admin: { description: 'Used when no logo is uploaded: https://… or /path. Empty: APP_LOGO_URL' },
        },
      ],
    },
    {
      type: 'row',
      fields: [
        { name: 'icon', type: 'upload', relationTo: 'media' },
        {
          name: 'iconUrl',
          type: 'text',
          validate: brandingUrlValidator,
          admin: { description: 'Used when no icon is uploaded: https://… or /path. Empty: APP_ICON_URL' },
        },
      ],
    },
    {
      name: 'primaryColor',
      type: 'text',
      validate: (value: unknown) =>
        value == null || value === '' || /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(String(value)) || 'Use a hex colour like #3b82f6',
      admin: { description: 'Empty: APP_PRIMARY_COLOR', components: { Field: COLOR_PICKER } },
    },
    { name: 'publicUrl', type: 'text', validate: publicUrlValidator, admin: { description: 'https://…; empty: APP_PUBLIC_URL' } },
    {
      name: 'submissionsOpen',
      type: 'checkbox',
      defaultValue: true,
      admin: { description: 'When off, POST /api/v1/content/submit answers 403 content.submissions_closed.' },
    },
  ],
}
