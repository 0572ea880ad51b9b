/**
 * The service sends no email: the interface has no password reset by email and no verification
 * (spec: "undecided and not part of the interface"), and the console's forgot/reset-password
 * routes are refused (endpoints/consoleSession.ts). Payload, given no adapter, warns at every
 * start and would log each message's recipient and subject; this adapter says so once, in the
 * docs, and should anything ever try to send, logs one warning naming the subject only (a
 * message may carry a link with a token, and its recipient is a person's address).
 */
import type { EmailAdapter } from 'payload'

export const noEmail: EmailAdapter<void> = ({ payload }) => ({
  name: 'none',
  defaultFromAddress: 'no-reply@invalid',
  defaultFromName: 'Content Curation Service',
  sendEmail: async (message) => {
    payload.logger.warn({ msg: 'email.not_sent', subject: typeof message.subject === 'string' ? message.subject : undefined, reason: 'this service sends no email' })
  },
})
