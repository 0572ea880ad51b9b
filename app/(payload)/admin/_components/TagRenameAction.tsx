'use client'
/**
 * Rename for a tag, in its edit view: shows how many content items the rename will touch,
 * then renames through the same service as POST /api/v1/tags/<slug>/rename.
 */
import { Button, toast, useDocumentInfo, useFormFields } from '@payloadcms/ui'
import { useRouter } from 'next/navigation'
import React, { useEffect, useState } from 'react'

export function TagRenameAction() {
  const { id } = useDocumentInfo()
  const slug = useFormFields(([fields]) => fields.slug?.value as string | undefined)
  const router = useRouter()
  const [impact, setImpact] = useState<number | null>(null)
  const [newSlug, setNewSlug] = useState('')
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    if (!id) return
    void fetch(`/api/tags/rename/${id}`, { credentials: 'same-origin' })
      .then((r) => (r.ok ? r.json() : null))
      .then((body) => setImpact(body?.data?.contentCount ?? null))
  }, [id, slug])

  if (!id) return null
  const rename = async () => {
    setBusy(true)
    try {
      const res = await fetch(`/api/tags/rename/${id}`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ newSlug }),
      })
      const body = await res.json().catch(() => ({}))
      if (!res.ok) {
        toast.error(body?.error?.message ?? 'The rename failed.')
        return
      }
      toast.success(`Renamed to ${body.data.slug}; ${body.data.contentCount} item(s) updated.`)
      setNewSlug('')
      router.refresh()
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="tag-rename" style={{ margin: '16px 0', padding: 12, border: '1px solid var(--theme-elevation-150)' }}>
      <strong>Rename this tag</strong>
      <p style={{ margin: '6px 0' }} className="tag-rename__impact">
        {impact === null ? 'Counting affected items…' : `This rename will update ${impact} content item${impact === 1 ? '' : 's'}.`}
      </p>
      <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
        <input name="tag-new-slug" placeholder="new-slug" value={newSlug} onChange={(e) => setNewSlug(e.target.value.trim())} />
        <Button size="small" disabled={busy || newSlug === '' || newSlug === slug} onClick={() => void rename()}>
          Rename
        </Button>
      </div>
    </div>
  )
}
