/** Every permission string the service knows, as the spec's table lists them. */
export const PERMISSIONS = [
  'content.submit',
  'content.moderate',
  'content.approve',
  'content.delete',
  'tag.manage',
  'catalog.manage',
  'user.manage',
  'user.invite',
  'role.manage',
] as const

export type Permission = (typeof PERMISSIONS)[number]

/** Holding any of these admits a user to the admin console; members hold none. */
export const CONSOLE_PERMISSIONS: readonly Permission[] = [
  'content.moderate',
  'content.approve',
  'tag.manage',
  'catalog.manage',
  'user.manage',
  'role.manage',
]

/** The roles created at bootstrap when missing. */
export const SEEDED_ROLES: { name: string; description: string; permissions: readonly Permission[] }[] = [
  { name: 'admin', description: 'Holds every permission.', permissions: PERMISSIONS },
  {
    name: 'moderator',
    description: 'Reviews submissions and manages tags.',
    permissions: ['content.moderate', 'content.approve', 'tag.manage'],
  },
  { name: 'member', description: 'Submits content (default for new sign-ups).', permissions: ['content.submit'] },
]

