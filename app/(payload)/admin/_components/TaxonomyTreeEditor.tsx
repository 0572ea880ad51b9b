'use client'
/**
 * The editable taxonomy tree: surfaces → groups → channels in display order. Holders of
 * catalog.manage reorder siblings by dragging (native HTML5 drag and drop) or by keyboard
 * (Alt+ArrowUp / Alt+ArrowDown on a focused row, or its Move buttons), activate or deactivate
 * a node, and add a child from its parent. Every change is optimistic and rolled back when the
 * server refuses it; moves and outcomes are announced through an aria-live region.
 */
import { toast } from '@payloadcms/ui'
import React, { useCallback, useEffect, useRef, useState } from 'react'

import { suggestSlug } from '../../../../src/platform/slug'
import { createOnServer, reorderOnServer, setActiveOnServer } from './taxonomyTreeApi'
import { CHILD_KIND, COLLECTION, type TreeKind, type TreeNode } from './taxonomyTreeTypes'

const NOUN: Record<TreeKind, string> = { surface: 'surface', group: 'group', channel: 'channel' }
type Drag = { id: string; kind: TreeKind; parentId: string | null }
type DropAt = { id: string; before: boolean }
type Creating = { kind: TreeKind; parentId: string | null }

const byOrder = (a: TreeNode, b: TreeNode) => a.displayOrder - b.displayOrder || a.label.localeCompare(b.label)

const CSS = `
.taxonomy-tree ul { list-style: none; margin: 0; padding-left: 28px; }
.taxonomy-tree > ul { padding-left: 0; }
.taxonomy-node__row { display: flex; align-items: center; gap: 8px; padding: 6px 8px; margin: 2px 0; border-radius: 4px;
  border: 1px solid transparent; border-top-width: 3px; border-bottom-width: 3px; background: var(--theme-elevation-50); }
.taxonomy-node__row:focus { outline: 2px solid var(--theme-success-500, #2563eb); outline-offset: 1px; }
.taxonomy-node__row[draggable="true"] { cursor: grab; }
.taxonomy-node__row.is-dragging { opacity: 0.4; }
.taxonomy-node__row.drop-before { border-top-color: var(--theme-success-500, #2563eb); }
.taxonomy-node__row.drop-after { border-bottom-color: var(--theme-success-500, #2563eb); }
.taxonomy-node__row.is-inactive .taxonomy-node__label { opacity: 0.55; text-decoration: line-through; }
.taxonomy-node__handle { color: var(--theme-elevation-650); user-select: none; }
.taxonomy-node__swatch { display: inline-block; width: 12px; height: 12px; border-radius: 3px; }
.taxonomy-node__spacer { flex: 1; }
.taxonomy-tree button { font: inherit; font-size: 12px; padding: 2px 8px; border-radius: 3px; cursor: pointer;
  border: 1px solid var(--theme-elevation-250); background: var(--theme-elevation-0); color: var(--theme-text); }
.taxonomy-tree button:disabled { opacity: 0.4; cursor: default; }
.taxonomy-node__badge { font-size: 11px; padding: 1px 6px; border-radius: 8px; background: var(--theme-elevation-150); }
.taxonomy-create { display: flex; gap: 8px; align-items: center; padding: 6px 8px; margin: 2px 0 6px 28px; }
.taxonomy-create input { padding: 3px 6px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`

export function TaxonomyTreeEditor({ initial, canManage }: { initial: TreeNode[]; canManage: boolean }) {
  const [nodes, setNodes] = useState<TreeNode[]>(initial)
  const [announcement, setAnnouncement] = useState('')
  const [drag, setDrag] = useState<Drag | null>(null)
  const [dropAt, setDropAt] = useState<DropAt | null>(null)
  const [creating, setCreating] = useState<Creating | null>(null)
  const [newLabel, setNewLabel] = useState('')
  const [newSlug, setNewSlug] = useState('')
  const [busy, setBusy] = useState(false)
  const rows = useRef(new Map<string, HTMLDivElement>())
  const focusNext = useRef<string | null>(null)

  useEffect(() => {
    if (!focusNext.current) return
    rows.current.get(focusNext.current)?.focus()
    focusNext.current = null
  })

  const childrenOf = useCallback(
    (kind: TreeKind, parentId: string | null) => nodes.filter((n) => n.kind === kind && n.parentId === parentId).sort(byOrder),
    [nodes],
  )
  const labelOf = (id: string | null) => nodes.find((n) => n.id === id)?.label ?? ''
  const announce = (text: string, error = false) => {
    setAnnouncement(text)
    if (error) toast.error(text)
  }

  /** Puts `ordered` (one parent's children) in that order, on screen at once and then on the server. */
  const saveOrder = async (moved: TreeNode, ordered: TreeNode[]) => {
    const position = ordered.findIndex((n) => n.id === moved.id) + 1
    const previous = new Map(ordered.map((n) => [n.id, n.displayOrder]))
    const index = new Map(ordered.map((n, i) => [n.id, i]))
    setNodes((all) => all.map((n) => (index.has(n.id) ? { ...n, displayOrder: index.get(n.id)! } : n)))
    focusNext.current = moved.id
    setBusy(true)
    try {
      const saved = await reorderOnServer(moved.kind, moved.parentId, ordered.map((n) => n.slug))
      const order = new Map(saved.map((s) => [String(s.id), s.displayOrder]))
      setNodes((all) => all.map((n) => (order.has(n.id) ? { ...n, displayOrder: order.get(n.id)! } : n)))
      announce(`${moved.label} moved to position ${position} of ${ordered.length}.`)
    } catch (err) {
      setNodes((all) => all.map((n) => (previous.has(n.id) ? { ...n, displayOrder: previous.get(n.id)! } : n)))
      announce(`Could not move ${moved.label}: ${(err as Error).message}`, true)
    } finally {
      setBusy(false)
    }
  }

  const moveBy = (node: TreeNode, delta: -1 | 1) => {
    const siblings = childrenOf(node.kind, node.parentId)
    const from = siblings.findIndex((n) => n.id === node.id)
    const to = from + delta
    if (to < 0 || to >= siblings.length) {
      announce(`${node.label} is already ${delta < 0 ? 'first' : 'last'}.`)
      return
    }
    const ordered = [...siblings]
    ordered.splice(from, 1)
    ordered.splice(to, 0, node)
    void saveOrder(node, ordered)
  }

  const moveNextTo = (dragged: Drag, target: TreeNode, before: boolean) => {
    const node = nodes.find((n) => n.id === dragged.id)
    if (!node || node.id === target.id) return
    const ordered = childrenOf(node.kind, node.parentId).filter((n) => n.id !== node.id)
    const at = ordered.findIndex((n) => n.id === target.id) + (before ? 0 : 1)
    ordered.splice(at, 0, node)
    void saveOrder(node, ordered)
  }

  const toggleActive = async (node: TreeNode) => {
    const isActive = !node.isActive
    setNodes((all) => all.map((n) => (n.id === node.id ? { ...n, isActive } : n)))
    setBusy(true)
    try {
      await setActiveOnServer(node.kind, node.id, isActive)
      announce(`${node.label} ${isActive ? 'activated' : 'deactivated'}.`)
    } catch (err) {
      setNodes((all) => all.map((n) => (n.id === node.id ? { ...n, isActive: node.isActive } : n)))
      announce(`Could not ${isActive ? 'activate' : 'deactivate'} ${node.label}: ${(err as Error).message}`, true)
    } finally {
      setBusy(false)
    }
  }

  const openCreate = (kind: TreeKind, parentId: string | null) => {
    setCreating({ kind, parentId })
    setNewLabel('')
    setNewSlug('')
  }

  const create = async () => {
    if (!creating) return
    setBusy(true)
    try {
      const made = await createOnServer(creating.kind, creating.parentId, newLabel.trim(), newSlug.trim())
      const node: TreeNode = {
        kind: creating.kind,
        id: String(made.id),
        slug: made.slug,
        label: made.label,
        color: made.color ?? made.accentColor ?? null,
        isActive: made.isActive !== false,
        displayOrder: made.displayOrder,
        parentId: creating.parentId,
      }
      setNodes((all) => [...all, node])
      setCreating(null)
      focusNext.current = node.id
      announce(`Created ${NOUN[node.kind]} ${node.label}${creating.parentId ? ` in ${labelOf(creating.parentId)}` : ''}.`)
    } catch (err) {
      announce(`Could not create the ${NOUN[creating.kind]}: ${(err as Error).message}`, true)
    } finally {
      setBusy(false)
    }
  }

  const onRowKey = (e: React.KeyboardEvent<HTMLDivElement>, node: TreeNode) => {
    if (e.target !== e.currentTarget) return
    if (canManage && e.altKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
      e.preventDefault()
      if (!busy) moveBy(node, e.key === 'ArrowUp' ? -1 : 1)
    } else if (!e.altKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
      // Plain arrows walk the rows in reading order.
      e.preventDefault()
      const all = [...document.querySelectorAll<HTMLDivElement>('.taxonomy-tree [data-tree-row]')]
      all[all.indexOf(e.currentTarget) + (e.key === 'ArrowUp' ? -1 : 1)]?.focus()
    } else if (e.key === 'Enter') {
      e.preventDefault()
      window.location.assign(`/admin/collections/${COLLECTION[node.kind]}/${node.id}`)
    }
  }

  const createForm = (kind: TreeKind, parentId: string | null) =>
    creating && creating.kind === kind && creating.parentId === parentId ? (
      <form
        className="taxonomy-create"
        aria-label={`New ${NOUN[kind]}${parentId ? ` in ${labelOf(parentId)}` : ''}`}
        onSubmit={(e) => {
          e.preventDefault()
          void create()
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setCreating(null)
        }}
      >
        <label>
          Label{' '}
          <input name="taxonomy-new-label" autoFocus value={newLabel} onChange={(e) => setNewLabel(e.target.value)} required />
        </label>
        <label>
          Slug{' '}
          <input name="taxonomy-new-slug" value={newSlug} placeholder={suggestSlug(newLabel) || 'derived from the label'} onChange={(e) => setNewSlug(e.target.value)} />
        </label>
        <button type="submit" disabled={busy || newLabel.trim() === ''}>
          Create {NOUN[kind]}
        </button>
        <button type="button" onClick={() => setCreating(null)}>
          Cancel
        </button>
      </form>
    ) : null

  const renderList = (kind: TreeKind, parentId: string | null): React.ReactNode => {
    const list = childrenOf(kind, parentId)
    return (
      <ul data-kind={kind} aria-label={parentId ? `${NOUN[kind]}s of ${labelOf(parentId)}` : 'Surfaces'}>
        {list.map((node, i) => {
          const child = CHILD_KIND[node.kind]
          const sameList = drag && drag.kind === node.kind && drag.parentId === node.parentId
          const classes = [
            'taxonomy-node__row',
            node.isActive ? '' : 'is-inactive',
            drag?.id === node.id ? 'is-dragging' : '',
            dropAt?.id === node.id ? (dropAt.before ? 'drop-before' : 'drop-after') : '',
          ]
          return (
            <li key={node.id} className={`taxonomy-node taxonomy-node--${node.kind}`} data-slug={node.slug}>
              <div
                ref={(el) => {
                  if (el) rows.current.set(node.id, el)
                  else rows.current.delete(node.id)
                }}
                data-tree-row
                data-slug={node.slug}
                role="group"
                tabIndex={0}
                className={classes.filter(Boolean).join(' ')}
                aria-label={`${node.label}, ${NOUN[node.kind]} ${i + 1} of ${list.length}${node.isActive ? '' : ', inactive'}`}
                aria-describedby={canManage ? 'taxonomy-tree-keys' : undefined}
                draggable={canManage && !busy}
                onKeyDown={(e) => onRowKey(e, node)}
                onDragStart={(e) => {
                  e.stopPropagation()
                  e.dataTransfer.effectAllowed = 'move'
                  e.dataTransfer.setData('text/plain', node.slug)
                  setDrag({ id: node.id, kind: node.kind, parentId: node.parentId })
                }}
                onDragEnd={() => {
                  setDrag(null)
                  setDropAt(null)
                }}
                onDragOver={(e) => {
                  if (!sameList) return
                  e.preventDefault()
                  e.stopPropagation()
                  const box = e.currentTarget.getBoundingClientRect()
                  const before = e.clientY < box.top + box.height / 2
                  if (dropAt?.id !== node.id || dropAt.before !== before) setDropAt({ id: node.id, before })
                }}
                onDrop={(e) => {
                  if (!sameList || !drag) return
                  e.preventDefault()
                  e.stopPropagation()
                  const box = e.currentTarget.getBoundingClientRect()
                  moveNextTo(drag, node, e.clientY < box.top + box.height / 2)
                  setDrag(null)
                  setDropAt(null)
                }}
              >
                {canManage ? (
                  <span className="taxonomy-node__handle" aria-hidden="true">
                    ⠿
                  </span>
                ) : null}
                {node.kind !== 'channel' ? <span className="taxonomy-node__swatch" style={{ background: node.color ?? '#ccc' }} /> : null}
                <a className="taxonomy-node__label" href={`/admin/collections/${COLLECTION[node.kind]}/${node.id}`} tabIndex={-1}>
                  {node.kind === 'surface' ? <strong>{node.label}</strong> : node.label}
                </a>
                <code>{node.slug}</code>
                {node.isActive ? null : <span className="taxonomy-node__badge">inactive</span>}
                <span className="taxonomy-node__spacer" />
                {canManage ? (
                  <>
                    <button type="button" aria-label={`Move ${node.label} up`} disabled={busy || i === 0} onClick={() => moveBy(node, -1)}>
                      ↑ Up
                    </button>
                    <button type="button" aria-label={`Move ${node.label} down`} disabled={busy || i === list.length - 1} onClick={() => moveBy(node, 1)}>
                      ↓ Down
                    </button>
                    <button type="button" aria-label={`${node.isActive ? 'Deactivate' : 'Activate'} ${node.label}`} disabled={busy} onClick={() => void toggleActive(node)}>
                      {node.isActive ? 'Deactivate' : 'Activate'}
                    </button>
                    {child ? (
                      <button type="button" aria-label={`Add a ${NOUN[child]} to ${node.label}`} disabled={busy} onClick={() => openCreate(child, node.id)}>
                        + {NOUN[child]}
                      </button>
                    ) : null}
                  </>
                ) : null}
              </div>
              {child ? (
                <>
                  {renderList(child, node.id)}
                  {createForm(child, node.id)}
                </>
              ) : null}
            </li>
          )
        })}
      </ul>
    )
  }

  return (
    <div className="taxonomy-tree">
      <style>{CSS}</style>
      {canManage ? (
        <p id="taxonomy-tree-keys">
          Drag a row to reorder it among its siblings, or focus it and press Alt+↑ / Alt+↓. Enter opens it; ↑ / ↓ move between rows.
        </p>
      ) : (
        <p>Surfaces, their groups and channels in display order. Select any node to open it.</p>
      )}
      {renderList('surface', null)}
      {canManage ? (
        <>
          {createForm('surface', null)}
          <button type="button" disabled={busy} onClick={() => openCreate('surface', null)}>
            + surface
          </button>
        </>
      ) : null}
      <div className="visually-hidden taxonomy-tree__announce" role="status" aria-live="polite">
        {announcement}
      </div>
    </div>
  )
}
