import type { GlobalConfig } from 'payload'

import { allowIf, consoleRead } from '../access/collectionAccess'
import { permissionsOfUser } from '../access/userPermissions'
import { getConfig } from '../src/platform/config'
import { globalWriteHook } from './hooks/domainWrites'
import { TEXT_LIMITS, textValidator } from '../src/platform/text'
import { brandingUrlValidator, publicUrlValidator } from '../src/platform/urlPolicy'
import { COLOR_PICKER } from './taxonomyFields'

/**
 * Branding edited in the admin panel. Empty fields fall back to their environment variables
 * (src/services/branding). selfRegistration is not here: it always reflects the environment.
 * The help speaks to an editor (issue 53.5): what a field changes, and what an empty one shows.
 */
const defaults = getConfig().branding
const whenEmpty = (value: string, what: string) => (value ? ` Empty: “${value}”, this deployment's default.` : ` Empty: no ${what}.`)
export const Branding: GlobalConfig = {
  slug: 'branding',
  admin: {
    group: 'Branding',
    // In the nav for those who may change it (issue 53.9): everyone else would find a page they can only read.
    hidden: ({ user }) => !permissionsOfUser(user as Parameters<typeof permissionsOfUser>[0]).includes('catalog.manage'),
  },
  access: { read: consoleRead, update: allowIf('catalog.manage') },
  // The branding record (/meta) is cached per branding change counter, moved in the write's transaction.
  hooks: { afterChange: [globalWriteHook('branding')] },
  fields: [
    { name: 'preview', type: 'ui', admin: { components: { Field: '/app/(payload)/admin/_components/BrandingPreview#BrandingPreview' } } },
    {
      name: 'name',
      type: 'text',
      validate: textValidator(TEXT_LIMITS.brandingName),
      admin: { description: `The name people see in the extension, on this console's sign-in page and in its tab.${whenEmpty(defaults.name, 'name')}` },
    },
    {
      name: 'tagline',
      type: 'text',
      validate: textValidator(TEXT_LIMITS.tagline),
      admin: { description: `A short line under the name in the extension.${whenEmpty(defaults.tagline, 'tagline')}` },
    },
    {
      name: 'description',
      type: 'textarea',
      validate: textValidator(TEXT_LIMITS.brandingDescription),
      admin: { description: `A few sentences about the collection, for the extension's about page.${whenEmpty(defaults.description, 'description')}` },
    },
    {
      type: 'row',
      fields: [
        { name: 'logo', type: 'upload', relationTo: 'media' },
        {
          name: 'logoUrl',
          type: 'text',
          validate: brandingUrlValidator,
          admin: { description: `Or a logo's address, used when none is uploaded: https://… or a path on this site such as /logo.png.${whenEmpty(defaults.logoUrl, 'logo')}` },
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
          admin: { description: `Or a small square icon's address (the header's and the browser tab's), used when none is uploaded.${whenEmpty(defaults.iconUrl, 'icon: the logo, or the name\'s first letter')}` },
        },
      ],
    },
    {
      name: 'primaryColor',
      type: 'text',
      validate: (value: unknown) =>
        value == null || value === '' || /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(String(value)) || 'Use a hex colour like #3b82f6',
      admin: { description: `The accent of buttons and highlights, in the extension and here.${whenEmpty(defaults.primaryColor, 'accent')}`, components: { Field: COLOR_PICKER } },
    },
    {
      name: 'publicUrl',
      type: 'text',
      validate: publicUrlValidator,
      admin: { description: `The address people reach this service at (https://…): links the extension shows start with it.${whenEmpty(defaults.publicUrl, 'address: links start with the address each visitor used')}` },
    },
    {
      name: 'submissionsOpen',
      type: 'checkbox',
      defaultValue: true,
      admin: { description: 'When off, the extension’s Submit button is disabled and new submissions are refused; what is already in the queue stays.' },
    },
  ],
}
