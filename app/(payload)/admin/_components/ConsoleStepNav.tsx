'use client'
/** The header's breadcrumb for a custom view (Payload's step nav: Dashboard › this view), as the stock views have. */
import { useStepNav } from '@payloadcms/ui'
import { useEffect } from 'react'

export function ConsoleStepNav({ label }: { label: string }) {
  const { setStepNav } = useStepNav()
  useEffect(() => {
    setStepNav([{ label }])
  }, [label, setStepNav])
  return null
}
