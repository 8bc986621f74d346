import { renderMail, type RenderedMail } from './layout';

/**
 * The notification mails (docs/email.md "Notifications"): assignment, mention, approval
 * requested, failure alert, and the digest that gathers the ones a person chose to get as one mail.
 * Each ends with how to change the choice (My account) or stop it (the unsubscribe link).
 */

/** The footer of every notification. */
function footer(settingsUrl: string, why: string): string[] {
  return [why, `Choose which mails you get, at once or as a digest, in My account: ${settingsUrl}`];
}

/** "You were assigned a task". */
export function assignmentMail(input: { by: string; task: string; project: string; link: string; settingsUrl: string }): RenderedMail {
  return renderMail({
    subject: `${input.by} assigned you “${input.task}”`,
    title: 'A task for you',
    paragraphs: [`${input.by} assigned you “${input.task}” in ${input.project}.`],
    action: { label: 'Open the task', url: input.link },
    footer: footer(input.settingsUrl, 'You get this mail because a task was assigned to you.'),
  });
}

/** "You were mentioned in a comment". */
export function mentionMail(input: {
  by: string;
  task: string;
  project: string;
  comment: string;
  link: string;
  settingsUrl: string;
}): RenderedMail {
  const quoted = input.comment.length > 500 ? `${input.comment.slice(0, 500)}…` : input.comment;
  return renderMail({
    subject: `${input.by} mentioned you on “${input.task}”`,
    title: 'You were mentioned',
    paragraphs: [`${input.by} mentioned you in a comment on “${input.task}” in ${input.project}:`, quoted],
    action: { label: 'Open the task', url: input.link },
    footer: footer(input.settingsUrl, 'You get this mail because you were mentioned.'),
  });
}

/** "An approval waits for you": the link opens the decision page (deciding is a separate step there). */
export function approvalMail(input: {
  automation: string;
  message: string;
  link: string;
  test: boolean;
  settingsUrl: string;
}): RenderedMail {
  return renderMail({
    subject: `Approval needed: ${input.automation}${input.test ? ' (test run)' : ''}`,
    title: 'An approval waits for you',
    paragraphs: [
      `A run of the automation “${input.automation}”${input.test ? ' (a test run)' : ''} waits for a decision.`,
      ...(input.message ? [input.message] : []),
      'The link opens the decision page, where you approve or reject it.',
    ],
    action: { label: 'Approve or reject', url: input.link },
    footer: footer(input.settingsUrl, 'You get this mail because you are an approver of this step.'),
  });
}

/** "An automation you own failed". */
export function failureMail(input: { automation: string; error: string; link: string; settingsUrl: string }): RenderedMail {
  return renderMail({
    subject: `Automation failed: ${input.automation}`,
    title: 'A run of your automation failed',
    paragraphs: [`A run of “${input.automation}” failed:`, input.error],
    action: { label: 'Open the run', url: input.link },
    footer: footer(input.settingsUrl, 'You get this mail because you own this automation.'),
  });
}

/** The digest: one line (the notification's subject) and link per notification gathered. */
export function digestMail(input: { items: readonly { subject: string; link: string | null }[]; settingsUrl: string }): RenderedMail {
  const n = input.items.length;
  return renderMail({
    subject: `Taskspace: ${n} notification${n === 1 ? '' : 's'}`,
    title: 'What happened',
    paragraphs: input.items.map((item) => (item.link ? `${item.subject}: ${item.link}` : item.subject)),
    footer: footer(input.settingsUrl, 'You get this digest because you chose digests for these notifications.'),
  });
}
