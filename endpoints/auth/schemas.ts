import { z } from 'zod'

import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../src/auth/passwords'
import { normalizeUsername, USERNAME_PATTERN, USERNAME_RULE } from '../../src/auth/usernames'
import { TEXT_LIMITS, textField } from '../../src/text'

/** Shared request fields of the identity endpoints. */
export const emailField = textField(TEXT_LIMITS.email, { trim: true }).transform((v) => v.toLowerCase()).pipe(z.email())
export const usernameField = z.string().transform(normalizeUsername).pipe(z.string().regex(USERNAME_PATTERN, USERNAME_RULE))
export const passwordField = z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH)
/** A refresh token as issued: 32 bytes base64url; anything longer is not one of ours. */
export const refreshTokenField = z.string().min(1).max(256)
