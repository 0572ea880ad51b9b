'use client'
/** Nav entries for the console's own views, each shown only to users with the permission it needs. */
import { useAuth } from '@payloadcms/ui'
import Link from 'next/link'
import React from 'react'

import { permissionsOfUser } from '../../../../access/userPermissions'
import type { User } from '../../../../payload-types'

export function ConsoleNavLinks() {
  const { user } = useAuth<User>()
  const held = permissionsOfUser(user)
  return (
    <>
      {held.includes('content.moderate') && (
        <Link href="/admin/moderation" className="nav__link" id="nav-moderation">
          <span className="nav__link-label">Moderation queue</span>
        </Link>
      )}
      {held.includes('content.moderate') && (
        <Link href="/admin/audit" className="nav__link" id="nav-audit">
          <span className="nav__link-label">Audit log</span>
        </Link>
      )}
      {held.includes('catalog.manage') && (
        <Link href="/admin/taxonomy" className="nav__link" id="nav-taxonomy">
          <span className="nav__link-label">Taxonomy tree</span>
        </Link>
      )}
    </>
  )
}
