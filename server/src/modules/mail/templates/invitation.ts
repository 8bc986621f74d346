import { renderMail, type RenderedMail } from './layout';

/** The invitation mail: who invites, to which workspace, as what, and the link (`<public URL>/invite?token=…`). */
export function invitationMail(input: {
  inviter: string;
  workspaceName: string;
  role: string;
  link: string;
  validDays: number;
}): RenderedMail {
  return renderMail({
    subject: `${input.inviter} invited you to ${input.workspaceName} on Taskspace`,
    title: `Join ${input.workspaceName}`,
    paragraphs: [
      `${input.inviter} invited you to the workspace ${input.workspaceName} as ${input.role}.`,
      `The link works once, for ${input.validDays} days: it lets you join with your account, or create one.`,
    ],
    action: { label: 'Accept the invitation', url: input.link },
    footer: ['If you did not expect this invitation, ignore this mail.'],
  });
}
