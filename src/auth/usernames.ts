/**
 * The one username rule, for every route (the API's schemas, the users collection in the
 * console and Payload REST): trimmed and lower-cased, then 3 to TEXT_LIMITS.username of
 * letters, digits, `_`, `.` and `-`. Lower-casing first makes `Admin` the same name as
 * `admin`, so the unique index refuses the variant.
 */
import { TEXT_LIMITS } from '../platform/text'

export const USERNAME_PATTERN = new RegExp(`^[a-z0-9_.-]{3,${TEXT_LIMITS.username}}$`)
export const USERNAME_RULE = `letters, digits, _ . - (3 to ${TEXT_LIMITS.username})`

export const normalizeUsername = (value: string): string => value.trim().toLowerCase()

/** The problem with an already normalised username, or null. */
export const usernameProblem = (normalized: string): string | null => (USERNAME_PATTERN.test(normalized) ? null : `The username must be ${USERNAME_RULE}.`)
