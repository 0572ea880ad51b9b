'use client'
/** A nav entry for the moderation queue, shown to users who may read pending content. */
import { useAuth } from '@payloadcms/ui'
import Link from 'next/link'
import React from 'react'

import { permissionsOfUser } from '../../../../access/userPermissions'

export function ModerationNavLink() {
  const { user } = useAuth()
  if (!permissionsOfUser(user as never).includes('content.moderate')) return null
  return (
    <Link href="/admin/moderation" className="nav__link" id="nav-moderation">
      <span className="nav__link-label">Moderation queue</span>
    </Link>
  )
}
