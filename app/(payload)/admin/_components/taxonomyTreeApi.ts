/**
 * The taxonomy tree's calls to its console endpoints (/api/surfaces/tree/*, session cookie):
 * each answers the API's envelope; a failure carries the envelope's message.
 */
import type { TreeKind } from './taxonomyTreeTypes'

export type Ordered = { id: string; slug: string; displayOrder: number }
export type Created = { id: string; slug: string; label: string; displayOrder: number; isActive: boolean; color?: string | null; accentColor?: string | null; parentId: string | null }

async function post<T>(action: 'reorder' | 'active' | 'create', body: Record<string, unknown>): Promise<T> {
  const res = await fetch(`/api/surfaces/tree/${action}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  const answer = (await res.json().catch(() => ({}))) as { data?: T; error?: { message?: string; details?: unknown } }
  if (!res.ok) {
    const details = Array.isArray(answer.error?.details) ? answer.error.details : []
    const first = details[0] as { field?: string; constraint?: string } | undefined
    throw new Error(`${answer.error?.message ?? `The ${action} failed (${res.status}).`}${first?.field ? ` (${first.field}: ${first.constraint})` : ''}`)
  }
  return answer.data as T
}

export const reorderOnServer = (kind: TreeKind, parentId: string | null, slugs: string[]) =>
  post<Ordered[]>('reorder', { kind, ...(parentId ? { parentId } : {}), slugs })

export const setActiveOnServer = (kind: TreeKind, id: string, isActive: boolean) => post<{ isActive: boolean }>('active', { kind, id, isActive })

export const createOnServer = (kind: TreeKind, parentId: string | null, label: string, slug: string) =>
  post<Created>('create', { kind, ...(parentId ? { parentId } : {}), label, ...(slug ? { slug } : {}) })
