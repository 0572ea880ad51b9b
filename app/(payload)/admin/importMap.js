import { ModerationNavLink as ModerationNavLink_6c66069e53ba74b7967d77f832f092ef } from '../../../app/(payload)/admin/_components/ModerationNavLink'
import { ModerationQueueView as ModerationQueueView_78f428617dd16578b59a6c69b66f2df4 } from '../../../app/(payload)/admin/_components/ModerationQueueView'
import { CollectionCards as CollectionCards_f9c02e79a4aed9a3924487c0cd4cafb1 } from '@payloadcms/next/rsc'

/** @type import('payload').ImportMap */
export const importMap = {
  "/app/(payload)/admin/_components/ModerationNavLink#ModerationNavLink": ModerationNavLink_6c66069e53ba74b7967d77f832f092ef,
  "/app/(payload)/admin/_components/ModerationQueueView#ModerationQueueView": ModerationQueueView_78f428617dd16578b59a6c69b66f2df4,
  "@payloadcms/next/rsc#CollectionCards": CollectionCards_f9c02e79a4aed9a3924487c0cd4cafb1
}
