import { ColorField as ColorField_0a32c7ae90559e357255dd4df68a631b } from '../../../app/(payload)/admin/_components/ColorField'
import { LastEdited as LastEdited_c320d50019f561107ffd1261dfd05a99 } from '../../../app/(payload)/admin/_components/LastEdited'
import { TagRenameAction as TagRenameAction_84468280df0ae27df066c23bcd1efb5a } from '../../../app/(payload)/admin/_components/TagRenameAction'
import { TagSlugsField as TagSlugsField_cfc2c360862fc547f993eef578a31969 } from '../../../app/(payload)/admin/_components/TagSlugsField'
import { ChannelField as ChannelField_8ceac64b3a984d698f817a2526c23f1b } from '../../../app/(payload)/admin/_components/ChannelField'
import { ContentModerationActions as ContentModerationActions_a2d46a65ea2f9d07d5fea76a0e565d79 } from '../../../app/(payload)/admin/_components/ContentModerationActions'
import { ContentModerationHistory as ContentModerationHistory_0d8800e85e2239091dc6ecb83f04837f } from '../../../app/(payload)/admin/_components/ContentModerationHistory'
import { ContentListNote as ContentListNote_cc7f7dd53456c4deedaf418541f38e80 } from '../../../app/(payload)/admin/_components/ContentListNote'
import { BrandingPreview as BrandingPreview_86d8a3ee674c4be766b6a1f3c0d6f946 } from '../../../app/(payload)/admin/_components/BrandingPreview'
import { BrandStyle as BrandStyle_b6d590d2e82ec4979fb765b427469927 } from '../../../app/(payload)/admin/_components/Brand'
import { BrandIcon as BrandIcon_b6d590d2e82ec4979fb765b427469927 } from '../../../app/(payload)/admin/_components/Brand'
import { BrandLogo as BrandLogo_b6d590d2e82ec4979fb765b427469927 } from '../../../app/(payload)/admin/_components/Brand'
import { QueueShortcut as QueueShortcut_48442ac8c3f24ad974cba37c38a97200 } from '../../../app/(payload)/admin/_components/QueueShortcut'
import { Dashboard as Dashboard_7e9d415c85bb8921a23e77db3cdc3488 } from '../../../app/(payload)/admin/_components/Dashboard'
import { ConsoleNavLinks as ConsoleNavLinks_e5040615eae9115d9609d08e90bc345e } from '../../../app/(payload)/admin/_components/ConsoleNavLinks'
import { ListMemory as ListMemory_50b1a473b139cbeaefd2287df38c1cf4 } from '../../../app/(payload)/admin/_components/ListMemory'
import { AccessibleControls as AccessibleControls_2b1915e59f360b316179df310b6565b1 } from '../../../app/(payload)/admin/_components/AccessibleControls'
import { ModerationQueueView as ModerationQueueView_78f428617dd16578b59a6c69b66f2df4 } from '../../../app/(payload)/admin/_components/ModerationQueueView'
import { AuditLogView as AuditLogView_dc80e9c780789789d5905b4b3b9de02a } from '../../../app/(payload)/admin/_components/AuditLogView'
import { TaxonomyTreeView as TaxonomyTreeView_843bdbee9c92e7acaecfb1815e8e0917 } from '../../../app/(payload)/admin/_components/TaxonomyTreeView'
import { CollectionCards as CollectionCards_f9c02e79a4aed9a3924487c0cd4cafb1 } from '@payloadcms/next/rsc'

/** @type import('payload').ImportMap */
export const importMap = {
  "/app/(payload)/admin/_components/ColorField#ColorField": ColorField_0a32c7ae90559e357255dd4df68a631b,
  "/app/(payload)/admin/_components/LastEdited#LastEdited": LastEdited_c320d50019f561107ffd1261dfd05a99,
  "/app/(payload)/admin/_components/TagRenameAction#TagRenameAction": TagRenameAction_84468280df0ae27df066c23bcd1efb5a,
  "/app/(payload)/admin/_components/TagSlugsField#TagSlugsField": TagSlugsField_cfc2c360862fc547f993eef578a31969,
  "/app/(payload)/admin/_components/ChannelField#ChannelField": ChannelField_8ceac64b3a984d698f817a2526c23f1b,
  "/app/(payload)/admin/_components/ContentModerationActions#ContentModerationActions": ContentModerationActions_a2d46a65ea2f9d07d5fea76a0e565d79,
  "/app/(payload)/admin/_components/ContentModerationHistory#ContentModerationHistory": ContentModerationHistory_0d8800e85e2239091dc6ecb83f04837f,
  "/app/(payload)/admin/_components/ContentListNote#ContentListNote": ContentListNote_cc7f7dd53456c4deedaf418541f38e80,
  "/app/(payload)/admin/_components/BrandingPreview#BrandingPreview": BrandingPreview_86d8a3ee674c4be766b6a1f3c0d6f946,
  "/app/(payload)/admin/_components/Brand#BrandStyle": BrandStyle_b6d590d2e82ec4979fb765b427469927,
  "/app/(payload)/admin/_components/Brand#BrandIcon": BrandIcon_b6d590d2e82ec4979fb765b427469927,
  "/app/(payload)/admin/_components/Brand#BrandLogo": BrandLogo_b6d590d2e82ec4979fb765b427469927,
  "/app/(payload)/admin/_components/QueueShortcut#QueueShortcut": QueueShortcut_48442ac8c3f24ad974cba37c38a97200,
  "/app/(payload)/admin/_components/Dashboard#Dashboard": Dashboard_7e9d415c85bb8921a23e77db3cdc3488,
  "/app/(payload)/admin/_components/ConsoleNavLinks#ConsoleNavLinks": ConsoleNavLinks_e5040615eae9115d9609d08e90bc345e,
  "/app/(payload)/admin/_components/ListMemory#ListMemory": ListMemory_50b1a473b139cbeaefd2287df38c1cf4,
  "/app/(payload)/admin/_components/AccessibleControls#AccessibleControls": AccessibleControls_2b1915e59f360b316179df310b6565b1,
  "/app/(payload)/admin/_components/ModerationQueueView#ModerationQueueView": ModerationQueueView_78f428617dd16578b59a6c69b66f2df4,
  "/app/(payload)/admin/_components/AuditLogView#AuditLogView": AuditLogView_dc80e9c780789789d5905b4b3b9de02a,
  "/app/(payload)/admin/_components/TaxonomyTreeView#TaxonomyTreeView": TaxonomyTreeView_843bdbee9c92e7acaecfb1815e8e0917,
  "@payloadcms/next/rsc#CollectionCards": CollectionCards_f9c02e79a4aed9a3924487c0cd4cafb1
}
