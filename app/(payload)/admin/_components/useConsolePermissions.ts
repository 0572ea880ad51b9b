'use client'
/**
 * The signed-in user's effective permissions in the console's client components, from GET
 * /api/users/console-permissions (read once per page load). Not from `useAuth().user`: that copy
 * is read with the user's own access, so a moderator's has role ids without their permissions
 * (the item's Approve/Reject/Delete and history panels stayed hidden from moderators).
 */
import { useEffect, useState } from 'react'

let loaded: Promise<string[]> | undefined

function load(): Promise<string[]> {
  loaded ??= fetch('/api/users/console-permissions', { credentials: 'same-origin' })
    .then((res) => (res.ok ? res.json() : { data: { permissions: [] } }))
    .then((body: { data?: { permissions?: string[] } }) => body.data?.permissions ?? [])
    .catch(() => {
      loaded = undefined
      return []
    })
  return loaded
}

/** The permissions, or undefined while they load. */
export function useConsolePermissions(): readonly string[] | undefined {
  const [held, setHeld] = useState<readonly string[]>()
  useEffect(() => {
    let live = true
    void load().then((p) => live && setHeld(p))
    return () => {
      live = false
    }
  }, [])
  return held
}
