import { z } from 'zod'

import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../src/auth/passwords'

/** Shared request fields of the identity endpoints. */
export const emailField = z.string().trim().toLowerCase().max(320).pipe(z.email())
export const usernameField = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9_.-]{3,32}$/, 'letters, digits, _ . - (3 to 32)')
export const passwordField = z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH)
/** A refresh token as issued: 32 bytes base64url; anything longer is not one of ours. */
export const refreshTokenField = z.string().min(1).max(256)
