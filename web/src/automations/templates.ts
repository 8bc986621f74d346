/**
 * The template gallery's templates (docs/automations.md "Templates"): ready-made automations
 * built only from the kinds of `GET /api/v1/automations/kinds`. What a template cannot know —
 * the project, the agent, the URL to post to — is a {@link TemplateChoice} the author makes in the
 * gallery before the automation is created (disabled); nothing here invents an id.
 * `test/automations/gallery-templates.test.ts` creates every template on a real server.
 */

/** The definition fields a template gives (as `POST /api/v1/automations` takes them). */
export interface TemplateDefinition {
  name: string;
  description?: string;
  trigger: { type: string; [key: string]: unknown };
  actions: Record<string, unknown>[];
}

/**
 * Something the author picks before the template becomes an automation: `project`, `agent`,
 * `agentCommand` (of the chosen `agentId`), `member` and `secret` are chosen from the
 * workspace; `url` is typed (https).
 */
export interface TemplateChoice {
  /** The key in {@link TemplateChoices}. */
  key: string;
  kind: 'project' | 'agent' | 'agentCommand' | 'member' | 'secret' | 'url';
  label: string;
  /** One line under the field. */
  help?: string;
  /** May stay empty (the template leaves the part out). */
  optional?: boolean;
}

/** The author's choices, by {@link TemplateChoice.key} ('' when an optional one was left empty). */
export type TemplateChoices = Record<string, string>;

/** One gallery template. */
export interface AutomationTemplate {
  /** Stable id (kebab-case). */
  id: string;
  title: string;
  /** One line for the gallery card. */
  description: string;
  /** A lucide icon name (the builder's kind icons). */
  icon: string;
  /** What the author picks first, in order. */
  choices: TemplateChoice[];
  /** The definition with the choices filled in. */
  build(choices: TemplateChoices): TemplateDefinition;
  /**
   * The trigger sample its steps need, where the trigger kind's example is not shaped for them (a
   * GitHub issue event for a webhook): the builder's test sample for the automation made from it
   * until it has a run of its own (docs "Samples").
   */
  sample?(choices: TemplateChoices): Record<string, unknown>;
}

const chatUrl = (label = 'Chat webhook URL'): TemplateChoice => ({
  key: 'url',
  kind: 'url',
  label,
  help: 'An incoming-webhook URL of Slack, Teams, Discord, Mattermost… (https).',
});
const project = (label = 'Project', help?: string): TemplateChoice => ({
  key: 'projectId',
  kind: 'project',
  label,
  ...(help ? { help } : {}),
});

/** An HTTP POST of `{text}` (the shape Slack, Mattermost and Teams incoming webhooks read). */
function postText(id: string, url: string, text: string): Record<string, unknown> {
  return { id, type: 'http.request', method: 'POST', url, body: { type: 'json', value: { text } } };
}

/** Every template of the gallery, in the order shown. */
export const TEMPLATES: readonly AutomationTemplate[] = [
  {
    id: 'new-task-to-chat',
    title: 'New task to chat',
    description: 'Posts every new task of a project to a Slack-style incoming webhook.',
    icon: 'message-square',
    choices: [project('Watch project'), chatUrl()],
    build: (c) => ({
      name: 'New task to chat',
      description: 'Posts each new task to a chat channel.',
      trigger: { type: 'task.added', scope: { projectId: c.projectId } },
      actions: [postText('post', c.url!, 'New task in {{ trigger.projectTitle }}: {{ trigger.nodeText }} {{ trigger.projectLink }}')],
    }),
  },
  {
    id: 'form-to-task',
    title: 'Form to task',
    description: 'A hosted form; each submission becomes a task in a project.',
    icon: 'clipboard-list',
    choices: [project('Add tasks to')],
    build: (c) => ({
      name: 'Request form',
      description: 'Turns each form submission into a task.',
      trigger: {
        type: 'form',
        title: 'Send us a request',
        fields: [
          { name: 'title', label: 'What do you need?', type: 'text', required: true },
          { name: 'details', label: 'Details', type: 'text', multiline: true },
          { name: 'email', label: 'Your email', type: 'text' },
        ],
        thankYou: 'Thanks, we got your request.',
      },
      actions: [
        { id: 'task', type: 'task.create', projectId: c.projectId, text: '{{ trigger.title }}' },
        // A note is one line; a comment may span lines (the details are multi-line).
        {
          id: 'details',
          type: 'comment.create',
          projectId: c.projectId,
          taskId: '{{ steps.task.id }}',
          text: '{{ trigger.details | default: "(no details)" }}\n\nFrom: {{ trigger.email | default: "anonymous" }}',
        },
      ],
    }),
  },
  {
    id: 'approval-before-publish',
    title: 'Approval before publish',
    description: 'When a task is completed, a member approves before it is published to a URL.',
    icon: 'user-check',
    choices: [project('Watch project'), chatUrl('Publish URL')],
    build: (c) => ({
      name: 'Approve, then publish',
      description: 'Asks for an approval when a task is done, then posts it to the publish URL.',
      trigger: { type: 'task.completed', scope: { projectId: c.projectId } },
      actions: [
        {
          id: 'approve',
          type: 'approval',
          message: 'Publish "{{ trigger.nodeText }}"?',
          timeoutMinutes: 1440,
          then: [
            {
              id: 'publish',
              type: 'http.request',
              method: 'POST',
              url: c.url,
              body: {
                type: 'json',
                value: { title: '{{ trigger.nodeText }}', link: '{{ trigger.projectLink }}', approvedBy: '{{ steps.approve.decidedBy }}' },
              },
            },
            {
              id: 'done',
              type: 'comment.create',
              projectId: '{{ trigger.projectId }}',
              taskId: '{{ trigger.nodeId }}',
              text: 'Published after approval by @{{ steps.approve.decidedBy }}.',
            },
          ],
        },
      ],
    }),
  },
  {
    id: 'github-issue-to-task',
    title: 'GitHub issue to task',
    description: 'A GitHub webhook: each newly opened issue becomes a task.',
    icon: 'webhook',
    choices: [
      project('Add tasks to'),
      {
        key: 'secret',
        kind: 'secret',
        label: 'Signing secret',
        optional: true,
        help: "The secret holding the GitHub webhook's secret (Settings → Secrets); leave empty to add it later.",
      },
    ],
    build: (c) => ({
      name: 'GitHub issues to tasks',
      description: 'Point a GitHub webhook (Issues events, JSON) at the inbound URL.',
      trigger: {
        type: 'webhook',
        ...(c.secret ? { verify: { type: 'github', secret: c.secret } } : {}),
        filter: { anyOf: [{ allOf: [{ left: '{{ trigger.action }}', operator: 'equals', right: 'opened' }] }] },
      },
      actions: [
        { id: 'task', type: 'task.create', projectId: c.projectId, text: '{{ trigger.issue.title }} (#{{ trigger.issue.number }})' },
        { id: 'link', type: 'task.setNote', projectId: c.projectId, taskId: '{{ steps.task.id }}', value: '{{ trigger.issue.html_url }}' },
        {
          id: 'body',
          type: 'comment.create',
          projectId: c.projectId,
          taskId: '{{ steps.task.id }}',
          text: '{{ trigger.issue.body | default: "(no description)" }}',
        },
      ],
    }),
    // The body of GitHub's `issues` event (action "opened"), trimmed to what the steps read.
    sample: () => ({
      action: 'opened',
      issue: {
        number: 42,
        title: 'Export fails for large projects',
        body: 'Exporting a project with 10,000 tasks times out.',
        html_url: 'https://github.com/example/repo/issues/42',
        user: { login: 'octocat' },
      },
      repository: { full_name: 'example/repo' },
    }),
  },
  {
    id: 'daily-digest',
    title: 'Daily digest',
    description: "Every weekday at 9:00, posts a project's open tasks to a chat webhook.",
    icon: 'calendar-clock',
    choices: [project('Digest of'), chatUrl()],
    build: (c) => ({
      name: 'Daily digest',
      description: 'Open tasks each weekday morning.',
      trigger: { type: 'schedule', cron: '0 9 * * 1-5', timezone: 'UTC' },
      actions: [
        { id: 'open', type: 'task.find', projectId: c.projectId, filter: { completed: false }, limit: 50 },
        postText(
          'post',
          c.url!,
          'Open tasks ({{ steps.open.items | size }}):\n{% for t in steps.open.items %}• {{ t.text }}\n{% endfor %}',
        ),
      ],
    }),
  },
  {
    id: 'failed-run-alert',
    title: 'Failed run alert',
    description: 'When any other automation fails, posts the error and a link to the run.',
    icon: 'triangle-alert',
    choices: [chatUrl()],
    build: (c) => ({
      name: 'Failed run alert',
      description: "Alerts the team when another automation's run fails.",
      trigger: { type: 'automation.failed' },
      actions: [
        postText(
          'alert',
          c.url!,
          'Automation "{{ trigger.automationName }}" failed: {{ trigger.error.message | default: trigger.error }} {{ trigger.runLink }}',
        ),
      ],
    }),
  },
  {
    id: 'due-reminder',
    title: 'Due task reminder',
    description: 'When a task falls due, comments on it to remind its assignees.',
    icon: 'alarm-clock',
    choices: [],
    build: () => ({
      name: 'Due reminder',
      description: 'A reminder comment on each task when it falls due.',
      trigger: { type: 'task.due' },
      actions: [
        {
          id: 'remind',
          type: 'comment.create',
          projectId: '{{ trigger.projectId }}',
          taskId: '{{ trigger.nodeId }}',
          text: 'Reminder: this task is due now.{% for a in trigger.assignees %}{% if forloop.first %} {% else %}, {% endif %}@{{ a.handle }}{% endfor %}',
        },
      ],
    }),
  },
  {
    id: 'agent-on-new-task',
    title: 'Agent drafts new tasks',
    description: "Runs an agent's command on each new task and adds the answer as a comment.",
    icon: 'bot',
    choices: [
      project('Watch project'),
      { key: 'agentId', kind: 'agent', label: 'Agent' },
      { key: 'command', kind: 'agentCommand', label: 'Command' },
    ],
    build: (c) => ({
      name: 'Agent on new task',
      description: "The agent's answer is added to the task as a comment.",
      trigger: { type: 'task.added', scope: { projectId: c.projectId } },
      actions: [
        { id: 'ask', type: 'agent.command', agentId: c.agentId, command: c.command, input: '{{ trigger.nodeText }}' },
        {
          id: 'answer',
          type: 'comment.create',
          projectId: '{{ trigger.projectId }}',
          taskId: '{{ trigger.nodeId }}',
          text: '{{ steps.ask.text }}',
        },
      ],
    }),
  },
  {
    id: 'auto-assign',
    title: 'Assign new tasks',
    description: 'Assigns every new task of a project to one member.',
    icon: 'user-plus',
    choices: [project('Watch project'), { key: 'handle', kind: 'member', label: 'Assign to' }],
    build: (c) => ({
      name: 'Assign new tasks',
      trigger: { type: 'task.added', scope: { projectId: c.projectId } },
      actions: [
        { id: 'assign', type: 'task.assign', projectId: '{{ trigger.projectId }}', taskId: '{{ trigger.nodeId }}', handles: [c.handle] },
      ],
    }),
  },
  {
    id: 'approval-to-chat',
    title: 'Approvals to chat',
    description: 'When a run waits for an approval, posts the question and the decision link.',
    icon: 'bell',
    choices: [chatUrl()],
    build: (c) => ({
      name: 'Approvals to chat',
      trigger: { type: 'approval.requested' },
      actions: [
        postText(
          'post',
          c.url!,
          '"{{ trigger.automationName }}" asks: {{ trigger.message | default: "approve?" }} Decide: {{ trigger.decisionLink }}',
        ),
      ],
    }),
  },
];

/** A choice's value is filled: non-empty, and an https URL for `url` (http only on localhost). */
export function choiceReady(choice: TemplateChoice, value: string | undefined): boolean {
  if (!value) return choice.optional === true;
  if (choice.kind !== 'url') return true;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '127.0.0.1'));
  } catch {
    return false;
  }
}
