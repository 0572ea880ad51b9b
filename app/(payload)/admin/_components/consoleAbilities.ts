/**
 * What the signed-in user may do in the console's own views, from the permissions Payload
 * computed for this request with the collections' access functions (themselves checks of
 * permission strings, access/): the content list is readable only with `content.moderate`,
 * surfaces creatable only with `catalog.manage`. Not from the user document handed to
 * components: Payload reads it with the user's own access, so a moderator's copy has role ids,
 * not the roles' permissions (which hid the console's nav links from moderators).
 */
type Granted = { read?: unknown; create?: unknown } | undefined
export type EntityPermissions = { collections?: Record<string, Granted> } | undefined

const allowed = (v: unknown) => v === true || (typeof v === 'object' && v !== null && (v as { permission?: unknown }).permission === true)

export function consoleAbilities(permissions: EntityPermissions) {
  return {
    moderate: allowed(permissions?.collections?.content?.read),
    manageCatalog: allowed(permissions?.collections?.surfaces?.create),
  }
}
