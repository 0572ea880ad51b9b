'use client'
/**
 * The edit view's note of who last saved a document in the console and when (issue 53.2), and
 * what the one editing it must know at once: that someone took the document over, or saved it
 * after it was opened here. Every few seconds it asks the document's lock and version; while this
 * tab holds the lock, it keeps the lock alive (a closed tab's lock then ends within seconds, not
 * Payload's five minutes: collections' lockDocuments.duration).
 */
import { useAuth, useDocumentInfo, useFormFields } from '@payloadcms/ui'
import React, { useEffect, useState } from 'react'

import { When } from './When'

/** How often the view asks, and keeps its lock alive. */
const EVERY_MS = 4_000

type Lock = { id: string; user?: { value?: { id?: string; email?: string; username?: string } | string } | null; updatedAt?: string }

const nameOf = (u: { email?: string; username?: string } | undefined) => u?.username ?? u?.email ?? 'someone'

export function LastEdited() {
  const { id, collectionSlug, globalSlug } = useDocumentInfo()
  const { user } = useAuth()
  const editedBy = useFormFields(([f]) => f.editedBy?.value as string | undefined)
  const loadedAt = useFormFields(([f]) => f.updatedAt?.value as string | undefined)
  const [editor, setEditor] = useState<string | undefined>()
  const [notice, setNotice] = useState<string | undefined>()

  useEffect(() => {
    if (!editedBy) return setEditor(undefined)
    let live = true
    fetch(`/api/users/${editedBy}?depth=0`, { credentials: 'same-origin' })
      .then((r) => (r.ok ? r.json() : null))
      .then((u: { email?: string; username?: string } | null) => live && setEditor(u ? nameOf(u) : undefined))
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [editedBy])

  useEffect(() => {
    if (!id && !globalSlug) return
    let live = true
    let held = false
    const slug = collectionSlug ?? globalSlug
    const ask = async () => {
      // The lock: taken over by someone else, or ours to keep alive.
      const where = globalSlug ? `where[globalSlug][equals]=${globalSlug}` : `where[document.value][equals]=${id}&where[document.relationTo][equals]=${collectionSlug}`
      const locks = await fetch(`/api/payload-locked-documents?${where}&depth=1&limit=1`, { credentials: 'same-origin' })
        .then((r) => (r.ok ? r.json() : null))
        .catch(() => null)
      const lock = (locks as { docs?: Lock[] } | null)?.docs?.[0]
      const holder = typeof lock?.user?.value === 'object' ? lock.user.value : undefined
      if (lock && holder?.id === user?.id) {
        held = true
        await fetch(`/api/payload-locked-documents/${lock.id}`, {
          method: 'PATCH',
          credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({}),
        }).catch(() => undefined)
      } else if (lock && held && holder) {
        if (live) setNotice(`${nameOf(holder)} took over editing this ${slug === 'content' ? 'item' : 'document'}. Your unsaved changes cannot be saved here: copy them, then reload.`)
        held = false
      }
      // The document: saved by someone else since it was loaded here.
      if (globalSlug || !loadedAt) return
      const now = await fetch(`/api/${collectionSlug}/${id}?depth=0&select[updatedAt]=true&select[editedBy]=true`, { credentials: 'same-origin' })
        .then((r) => (r.ok ? r.json() : null))
        .catch(() => null)
      const stored = now as { updatedAt?: string; editedBy?: string | null } | null
      if (live && stored?.updatedAt && Date.parse(stored.updatedAt) > Date.parse(loadedAt) && stored.editedBy !== user?.id) {
        const who = stored.editedBy
          ? await fetch(`/api/users/${stored.editedBy}?depth=0`, { credentials: 'same-origin' })
              .then((r) => (r.ok ? r.json() : null))
              .then((u: { email?: string; username?: string } | null) => (u ? nameOf(u) : 'Someone'))
              .catch(() => 'Someone')
          : 'Someone'
        // A take-over said first stays: it says more.
        setNotice((was) => was ?? `${who} saved this after you opened it. Reload before you save: your save would be refused (copy your changes first).`)
      }
    }
    const timer = setInterval(() => void ask(), EVERY_MS)
    return () => {
      live = false
      clearInterval(timer)
    }
  }, [collectionSlug, globalSlug, id, loadedAt, user?.id])

  return (
    <div className="last-edited">
      {notice ? (
        <div className="last-edited__notice" role="alert">
          {notice}{' '}
          <button type="button" className="btn btn--style-secondary btn--size-small" onClick={() => window.location.reload()}>
            Reload
          </button>
        </div>
      ) : null}
      {loadedAt ? (
        <p className="last-edited__who">
          Last saved <When iso={loadedAt} />
          {editor ? ` by ${editor}` : ''}
        </p>
      ) : null}
    </div>
  )
}
