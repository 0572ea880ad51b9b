/** Field builders shared by the taxonomy and content collections. */
import type { Field } from 'payload'

import { validateSlugField } from '../src/slug'
import { TEXT_LIMITS, textValidator } from '../src/text'

const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/

/** The console's colour picker (a custom field component). */
export const COLOR_PICKER = '/app/(payload)/admin/_components/ColorField#ColorField'

export function slugField({ unique }: { unique: boolean }): Field {
  return {
    name: 'slug',
    type: 'text',
    required: true,
    unique,
    index: !unique,
    maxLength: TEXT_LIMITS.slug,
    validate: (value: unknown) => validateSlugField(value),
    admin: { description: 'Lowercase letters, digits and inner hyphens; 1-64 characters.' },
  }
}

export function colorField(name: string, defaultValue = '#6b7280'): Field {
  return {
    name,
    type: 'text',
    required: true,
    defaultValue,
    validate: (value: unknown) => (typeof value === 'string' && HEX.test(value) ? true : 'Use a hex colour such as #3b82f6.'),
    admin: { components: { Field: COLOR_PICKER } },
  }
}

export const displayOrderField: Field = { name: 'displayOrder', type: 'number', required: true, defaultValue: 0 }
export const isActiveField: Field = { name: 'isActive', type: 'checkbox', defaultValue: true }
/** Length in code points (src/text), as the API counts: no Payload maxLength (UTF-16 units). */
export const labelField = { name: 'label', type: 'text', required: true, validate: textValidator(TEXT_LIMITS.label) } satisfies Field
