/**
 * Field builders shared by the taxonomy and content collections. Payload's field configs;
 * their rules come from the one taxonomy field table (src/services/taxonomyFields.ts).
 */
import type { Field } from 'payload'

import { BROWSE_MODES, ruleValidator } from '../src/services/taxonomyFields'
import { validateSlugField } from '../src/platform/slug'
import { TEXT_LIMITS, textValidator } from '../src/platform/text'

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
    validate: ruleValidator('color', 'Use a hex colour such as #3b82f6.'),
    admin: { components: { Field: COLOR_PICKER } },
  }
}

export const displayOrderField: Field = { name: 'displayOrder', type: 'number', required: true, defaultValue: 0 }
export const isActiveField: Field = { name: 'isActive', type: 'checkbox', defaultValue: true }
/** Length in code points (src/platform/text), as the API counts: no Payload maxLength (UTF-16 units). */
export const labelField = { name: 'label', type: 'text', required: true, validate: textValidator(TEXT_LIMITS.label) } satisfies Field

export const routePrefixField: Field = {
  name: 'routePrefix',
  type: 'text',
  required: true,
  validate: ruleValidator('routePrefix', 'Use a path of lowercase letters, digits, hyphens and slashes, such as /learn.'),
  admin: { description: 'Path prefix, e.g. /learn' },
}

export const browseModeField: Field = {
  name: 'browseMode',
  type: 'select',
  required: true,
  defaultValue: 'grid',
  options: [...BROWSE_MODES],
  // Required: nothing to clear (and Payload's clear control is a focusable aria-hidden element).
  admin: { isClearable: false },
}
