'use client'
/**
 * The item's channel: Payload's relationship field, offering the chosen group's channels only
 * (the collection's filterOptions). It waits for a group (read-only until one is chosen: a channel
 * without one is refused), and a channel belongs to one group, so a change of group empties the
 * channel at once, in the form: the editor chooses again from the new group's channels instead of
 * saving a pair the server refuses ("The channel does not belong to the group").
 */
import { RelationshipField, useField, useFormFields } from '@payloadcms/ui'
import type { RelationshipFieldClientComponent } from 'payload'
import React, { useEffect, useRef } from 'react'

const idOf = (v: unknown): string => (v == null ? '' : typeof v === 'object' ? String((v as { id?: unknown }).id ?? '') : String(v))

export const ChannelField: RelationshipFieldClientComponent = (props) => {
  const group = useFormFields(([fields]) => idOf(fields.group?.value))
  const { value, setValue } = useField<unknown>({ potentiallyStalePath: props.path ?? props.field.name })
  const seen = useRef(group)
  useEffect(() => {
    if (seen.current === group) return
    seen.current = group
    if (idOf(value)) setValue(null)
  }, [group, value, setValue])
  return <RelationshipField {...props} readOnly={props.readOnly || !group} />
}
