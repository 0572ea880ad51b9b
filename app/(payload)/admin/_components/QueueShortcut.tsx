/**
 * The moderation queue from anywhere in the console, in one click or one key: a link in the
 * header (always shown, unlike the nav drawer, which is closed by default) and the key `q`
 * (when no field has focus), for users who may moderate (./consoleAbilities).
 */
import React from 'react'

import { consoleAbilities, type EntityPermissions } from './consoleAbilities'
import { QueueShortcutLink } from './QueueShortcutLink'

export function QueueShortcut({ permissions }: { permissions?: EntityPermissions }) {
  return consoleAbilities(permissions).moderate ? <QueueShortcutLink /> : null
}
