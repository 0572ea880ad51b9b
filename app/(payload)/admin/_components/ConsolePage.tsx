/** The console's page frame (Payload's default template: nav, header) for custom views. */
import { DefaultTemplate } from '@payloadcms/next/templates'
import { Gutter } from '@payloadcms/ui'
import type { AdminViewServerProps } from 'payload'
import React from 'react'

import { ConsoleStepNav } from './ConsoleStepNav'

type Props = Pick<AdminViewServerProps, 'initPageResult' | 'params' | 'searchParams'> & {
  title: string
  children: React.ReactNode
}

export function ConsolePage({ initPageResult, params, searchParams, title, children }: Props) {
  const { req, permissions, visibleEntities, locale } = initPageResult
  return (
    <DefaultTemplate
      i18n={req.i18n}
      locale={locale}
      params={params}
      payload={req.payload}
      permissions={permissions}
      searchParams={searchParams}
      user={req.user || undefined}
      visibleEntities={visibleEntities}
    >
      <Gutter className="console-view">
        <ConsoleStepNav label={title} />
        <h1 style={{ marginTop: 24 }}>{title}</h1>
        {children}
      </Gutter>
    </DefaultTemplate>
  )
}
