/**
 * Nav entries for the console's own views, each shown only to users with the permission it
 * needs (./consoleAbilities: from this request's computed permissions; a client-side check of
 * the user's roles hid these links from moderators, whose copy of themselves has no roles' permissions).
 */
import Link from 'next/link'
import React from 'react'

import { consoleAbilities, type EntityPermissions } from './consoleAbilities'

export function ConsoleNavLinks({ permissions }: { permissions?: EntityPermissions }) {
  const can = consoleAbilities(permissions)
  return (
    <>
      {can.moderate && (
        <Link href="/admin/moderation" className="nav__link" id="nav-moderation">
          <span className="nav__link-label">Moderation queue</span>
        </Link>
      )}
      {can.moderate && (
        <Link href="/admin/audit" className="nav__link" id="nav-audit">
          <span className="nav__link-label">Audit log</span>
        </Link>
      )}
      {can.manageCatalog && (
        <Link href="/admin/taxonomy" className="nav__link" id="nav-taxonomy">
          <span className="nav__link-label">Taxonomy tree</span>
        </Link>
      )}
    </>
  )
}
