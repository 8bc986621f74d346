import { renderMail, type RenderedMail } from './layout';

/** The password reset mail: the link (`<public URL>/reset-password?token=…`) and how long it lasts. */
export function passwordResetMail(input: { handle: string; link: string; validMinutes: number }): RenderedMail {
  return renderMail({
    subject: 'Reset your Taskspace password',
    title: 'Reset your password',
    paragraphs: [
      `Someone (hopefully you) asked to reset the password of @${input.handle}.`,
      `The link below sets a new password. It works once, for ${input.validMinutes} minutes, and signs you out everywhere else.`,
    ],
    action: { label: 'Choose a new password', url: input.link },
    footer: ['If you did not ask for this, ignore this mail: your password stays as it is.'],
  });
}
