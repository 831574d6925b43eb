/**
 * The values of a submit reply's `confirmation_email`, written once: what to tell the person (in
 * the reply's `message`, which the workspace and the no-JavaScript reply show) and, keyed by the
 * same values, what each means to an agent (the contract, /openapi.json, SKILL.md, /agents). The
 * workspace script carries neither table: it shows the message the function wrote.
 */
export const CONFIRMATION_EMAIL_TO_PERSON = {
  sent: 'A confirmation email was sent to the address you gave.',
  not_sent:
    'The confirmation email is not sent yet; it is sent as soon as the mail server is reachable, without any action from you.',
  failed: 'The confirmation email could not be sent.',
  not_configured: 'No confirmation email is sent for this request.',
  limited:
    'No confirmation email was sent: the limit of emails to one address, or from this site, for today was reached. Your request is stored and delivered all the same.',
} as const;

export type ConfirmationEmailState = keyof typeof CONFIRMATION_EMAIL_TO_PERSON;

export const CONFIRMATION_EMAIL_MEANINGS = {
  sent: 'The confirmation email was accepted by the mail server. Only this value allows saying an email was sent.',
  not_sent:
    'No email was sent yet: the request is still pending, or the mail server could not be reached. The email is owed and is sent automatically once the request is received and the mail server answers.',
  failed:
    'The mail server refused the confirmation email (or it failed repeatedly); it will not be sent. The request itself is unaffected.',
  not_configured: 'This deployment sends no confirmation emails.',
  limited:
    'No confirmation email was sent because a sending limit was reached (a few per address a day, and a daily total for the site; data_handling.limits in the contract gives the numbers). The request itself is stored and delivered as usual; keep the request_id as the reference.',
} as const satisfies Record<ConfirmationEmailState, string>;
