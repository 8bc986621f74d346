import { renderMail, type RenderedMail } from './layout';

/**
 * The confirmation mail sent to a new address (docs "Accounts and sign-in", "Your email
 * address"): the link (`<public URL>/verify-email?token=…`) and how long it lasts.
 */
export function emailVerificationMail(input: { handle: string; email: string; link: string; validHours: number }): RenderedMail {
  return renderMail({
    subject: 'Confirm your email address for Taskspace',
    title: 'Confirm your email address',
    paragraphs: [
      `@${input.handle} asked to use ${input.email} as the email address of their Taskspace account.`,
      `Open the link below and press Confirm to make it so. The link works once, for ${input.validHours} hours.`,
    ],
    action: { label: 'Confirm this address', url: input.link },
    footer: ['If you did not ask for this, ignore this mail: nothing changes until the link is used.'],
  });
}

/** The notice sent to the previous address once a new one is confirmed (no link, nothing to do). */
export function emailChangedMail(input: { handle: string; email: string }): RenderedMail {
  return renderMail({
    subject: 'Your Taskspace email address was changed',
    title: 'Your email address was changed',
    paragraphs: [
      `The email address of @${input.handle} is now ${input.email}. Mail from Taskspace, password reset links included, goes there from now on.`,
    ],
    footer: ['If you did not do this, sign in and change your password, or ask an admin of your Taskspace for help.'],
  });
}
