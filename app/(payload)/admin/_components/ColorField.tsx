'use client'
/** A colour field: the native picker beside the hex text, both editing the same value. */
import { FieldLabel, useField } from '@payloadcms/ui'
import type { TextFieldClientComponent } from 'payload'
import React from 'react'

const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/
const sixDigits = (hex: string) => (hex.length === 4 ? `#${[...hex.slice(1)].map((c) => c + c).join('')}` : hex)

export const ColorField: TextFieldClientComponent = ({ field, path: givenPath, readOnly }) => {
  const path = givenPath ?? field.name
  const { value, setValue, showError, errorMessage } = useField<string>({ potentiallyStalePath: path })
  const current = typeof value === 'string' ? value : ''
  const label = typeof field.label === 'string' ? field.label : field.name
  return (
    <div className="field-type text" style={{ marginBottom: 16 }}>
      <FieldLabel label={label} path={path} required={field.required} />
      <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
        <input
          type="color"
          aria-label={`${label} picker`}
          name={`${path}-picker`}
          disabled={readOnly}
          value={HEX.test(current) ? sixDigits(current) : '#000000'}
          onChange={(e) => setValue(e.target.value)}
          style={{ width: 44, height: 36, padding: 0, border: 'none', background: 'none' }}
        />
        <input
          type="text"
          id={`field-${path}`}
          name={path}
          disabled={readOnly}
          value={current}
          placeholder="#3b82f6"
          onChange={(e) => setValue(e.target.value)}
          style={{ width: 120 }}
        />
      </div>
      {showError && errorMessage ? <div className="field-error">{errorMessage}</div> : null}
    </div>
  )
}
