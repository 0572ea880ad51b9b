/** Field builders shared by the taxonomy and content collections. */
import type { Field } from 'payload'

import { validateSlugField } from '../src/slug'

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
    maxLength: 64,
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
export const labelField = { name: 'label', type: 'text', required: true, maxLength: 120 } satisfies Field
