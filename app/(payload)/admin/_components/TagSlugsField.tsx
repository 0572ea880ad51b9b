'use client'
/**
 * A content item's tags, chosen from the existing tags: chips for the chosen ones (each with a
 * remove button), and a search-as-you-type combobox over GET /api/v1/tags?q= (prefix of slug or
 * label, as the extension searches). Replaces Payload's JSON editor for the field, which loads
 * Monaco from a CDN the console's policy refuses. Keyboard: ↑/↓ move through the suggestions,
 * Enter adds one, Escape closes them, Backspace in an empty box removes the last tag.
 */
import { FieldLabel, useField } from '@payloadcms/ui'
import type { JSONFieldClientComponent } from 'payload'
import React, { useEffect, useId, useMemo, useRef, useState } from 'react'

type TagOption = { slug: string; label: string; facet: string }

const SUGGESTIONS = 12
const DEBOUNCE_MS = 150

function useTagSearch(query: string): { options: TagOption[]; loading: boolean } {
  const [options, setOptions] = useState<TagOption[]>([])
  const [loading, setLoading] = useState(false)
  useEffect(() => {
    const controller = new AbortController()
    const timer = setTimeout(async () => {
      setLoading(true)
      try {
        const q = query.trim()
        const res = await fetch(`/api/v1/tags?limit=${SUGGESTIONS}${q ? `&q=${encodeURIComponent(q)}` : ''}`, { signal: controller.signal })
        const body = (await res.json()) as { data?: TagOption[] }
        setOptions(res.ok && Array.isArray(body.data) ? body.data : [])
      } catch {
        if (!controller.signal.aborted) setOptions([])
      } finally {
        if (!controller.signal.aborted) setLoading(false)
      }
    }, DEBOUNCE_MS)
    return () => {
      controller.abort()
      clearTimeout(timer)
    }
  }, [query])
  return { options, loading }
}

export const TagSlugsField: JSONFieldClientComponent = ({ field, path: givenPath, readOnly }) => {
  const path = givenPath ?? field.name
  const { value, setValue, showError, errorMessage } = useField<unknown>({ potentiallyStalePath: path })
  const chosen = useMemo(() => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []), [value])
  const [query, setQuery] = useState('')
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(0)
  const { options, loading } = useTagSearch(query)
  const suggestions = options.filter((o) => !chosen.includes(o.slug))
  const input = useRef<HTMLInputElement>(null)
  const id = useId()
  const listId = `${id}-tags`
  const label = typeof field.label === 'string' ? field.label : 'Tags'

  const add = (slug: string) => {
    if (!chosen.includes(slug)) setValue([...chosen, slug])
    setQuery('')
    setActive(0)
    input.current?.focus()
  }
  const remove = (slug: string) => setValue(chosen.filter((s) => s !== slug))

  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault()
      setOpen(true)
      setActive((i) => Math.min(i + 1, Math.max(suggestions.length - 1, 0)))
    } else if (e.key === 'ArrowUp') {
      e.preventDefault()
      setActive((i) => Math.max(i - 1, 0))
    } else if (e.key === 'Enter') {
      // Never submits the document's form from here.
      e.preventDefault()
      const pick = suggestions[active]
      if (open && pick) add(pick.slug)
    } else if (e.key === 'Escape') {
      setOpen(false)
    } else if (e.key === 'Backspace' && query === '' && chosen.length > 0) {
      remove(chosen[chosen.length - 1]!)
    }
  }

  return (
    <div className="field-type tag-slugs-field" style={{ marginBottom: 24, position: 'relative' }}>
      <FieldLabel label={label} path={path} htmlFor={`field-${path}`} />
      <ul aria-label={`${label} chosen`} style={{ display: 'flex', flexWrap: 'wrap', gap: 6, listStyle: 'none', margin: '0 0 8px', padding: 0 }}>
        {chosen.map((slug) => (
          <li key={slug} className="tag-slugs-field__chip" style={{ display: 'inline-flex', alignItems: 'center', gap: 4, padding: '2px 4px 2px 10px', borderRadius: 12, background: 'var(--theme-elevation-100)', color: 'var(--theme-elevation-1000)' }}>
            <span>{slug}</span>
            {readOnly ? null : (
              <button type="button" aria-label={`Remove tag ${slug}`} onClick={() => remove(slug)} style={{ border: 'none', background: 'none', color: 'inherit', cursor: 'pointer', fontSize: 16, lineHeight: 1, padding: '0 6px' }}>
                ×
              </button>
            )}
          </li>
        ))}
        {chosen.length === 0 ? <li style={{ color: 'var(--theme-elevation-650)' }}>No tags yet.</li> : null}
      </ul>
      {readOnly ? null : (
        <>
          <input
            ref={input}
            id={`field-${path}`}
            type="text"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={open && suggestions.length > 0}
            aria-controls={listId}
            aria-activedescendant={open && suggestions[active] ? `${listId}-${suggestions[active]!.slug}` : undefined}
            autoComplete="off"
            placeholder="Search tags by name or slug"
            value={query}
            onChange={(e) => {
              setQuery(e.target.value)
              setOpen(true)
              setActive(0)
            }}
            onFocus={() => setOpen(true)}
            onBlur={() => setTimeout(() => setOpen(false), 150)}
            onKeyDown={onKeyDown}
            style={{ width: '100%', maxWidth: 480 }}
          />
          {open && suggestions.length > 0 ? (
            <ul
              id={listId}
              role="listbox"
              aria-label={`${label} suggestions`}
              style={{ position: 'absolute', zIndex: 10, maxWidth: 480, width: '100%', margin: '4px 0 0', padding: 4, listStyle: 'none', background: 'var(--theme-input-bg)', border: '1px solid var(--theme-elevation-150)', borderRadius: 4, boxShadow: '0 4px 12px rgb(0 0 0 / 15%)' }}
            >
              {suggestions.map((o, i) => (
                <li
                  key={o.slug}
                  id={`${listId}-${o.slug}`}
                  role="option"
                  aria-selected={i === active}
                  onMouseDown={(e) => {
                    e.preventDefault()
                    add(o.slug)
                  }}
                  onMouseEnter={() => setActive(i)}
                  style={{ padding: '6px 8px', cursor: 'pointer', borderRadius: 3, background: i === active ? 'var(--theme-elevation-100)' : 'transparent' }}
                >
                  {o.label} <span style={{ color: 'var(--theme-elevation-650)' }}>({o.slug} · {o.facet})</span>
                </li>
              ))}
            </ul>
          ) : null}
          <div aria-live="polite" className="tag-slugs-field__status" style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
            {open && !loading ? `${suggestions.length} tag${suggestions.length === 1 ? '' : 's'} found` : ''}
          </div>
        </>
      )}
      {showError && errorMessage ? <div className="field-error">{errorMessage}</div> : null}
    </div>
  )
}
