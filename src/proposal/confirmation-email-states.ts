/**
 * The values of a submit reply's `confirmation_email`, written once: what each means to an agent
 * (the contract, /openapi.json, SKILL.md, /agents) and what to tell the person (the reply's
 * message, the workspace and the no-JavaScript reply). Browser-safe: plain data.
 */
export const CONFIRMATION_EMAIL_STATES = {
  sent: {
    meaning: 'The confirmation email was accepted by the mail server. Only this value allows saying an email was sent.',
    toPerson: 'A confirmation email was sent to the address you gave.',
  },
  not_sent: {
    meaning:
      'No email was sent yet: the request is still pending, or the mail server could not be reached. The email is owed and is sent automatically once the request is received and the mail server answers.',
    toPerson:
      'The confirmation email is not sent yet; it is sent as soon as the mail server is reachable, without any action from you. Keep the request_id as your reference.',
  },
  failed: {
    meaning:
      'The mail server refused the confirmation email (or it failed repeatedly); it will not be sent. The request itself is unaffected.',
    toPerson: 'The confirmation email could not be sent; keep the request_id as your reference.',
  },
  not_configured: {
    meaning: 'This deployment sends no confirmation emails.',
    toPerson: 'No confirmation email is sent for this request; keep the request_id as your reference.',
  },
  limited: {
    meaning:
      'No confirmation email was sent because a sending limit was reached (a few per address a day, and a daily total for the site; data_handling.limits in the contract gives the numbers). The request itself is stored and delivered as usual; keep the request_id as the reference.',
    toPerson:
      'No confirmation email was sent: the limit of emails to one address, or from this site, for today was reached. Your request is stored and delivered all the same; keep the request_id as your reference.',
  },
} as const;

export type ConfirmationEmailState = keyof typeof CONFIRMATION_EMAIL_STATES;
