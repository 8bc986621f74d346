import type { AgentDataInput } from './agent-data';
import type { DetailedTemplate } from './template-types';

/** The hand-written presets, by template type. */
export const DETAILED_TEMPLATES: Readonly<Record<DetailedTemplate, AgentDataInput>> = {
  Tasker: {
    description: 'Turns goals and notes into clear, actionable tasks.',
    tone: 'confident',
    avatar: { type: 'emoji', data: { value: '✅' } },
    inputPlaceholder: 'Describe what needs to get done',
    commands: [
      {
        name: 'Break down',
        prompt: 'Break this goal down into a short list of concrete tasks, one per line:\n\n{{ input }}',
        mode: 'default',
      },
      { name: 'Next step', prompt: 'What is the single next action to move this forward?\n\n{{ input }}', mode: 'default' },
    ],
  },
  Researcher: {
    description: 'Investigates a question and reports findings with their sources and open points.',
    tone: 'serious',
    avatar: { type: 'emoji', data: { value: '🔎' } },
    inputPlaceholder: 'Ask a research question',
    commands: [
      {
        name: 'Research',
        prompt: 'Research this question. Plan the steps, then report findings, sources and open questions:\n\n{{ input }}',
        mode: 'plan-and-execute-v1',
      },
      {
        name: 'Compare',
        prompt: 'Compare the options below in a table of pros and cons, then recommend one:\n\n{{ input }}',
        mode: 'default',
      },
    ],
  },
  Writer: {
    description: 'Drafts and polishes text.',
    tone: 'creative',
    avatar: { type: 'emoji', data: { value: '✍️' } },
    inputPlaceholder: 'What should I write?',
    commands: [
      { name: 'Draft', prompt: 'Write a first draft of:\n\n{{ input }}', mode: 'default' },
      { name: 'Improve', prompt: 'Improve the clarity and flow of this text, keeping its meaning:\n\n{{ input }}', mode: 'default' },
    ],
  },
  Planner: {
    description: 'Builds schedules and step-by-step plans.',
    tone: 'optimistic',
    avatar: { type: 'emoji', data: { value: '🗓️' } },
    inputPlaceholder: 'Describe the project or event to plan',
    commands: [{ name: 'Plan', prompt: 'Make a step-by-step plan with milestones for:\n\n{{ input }}', mode: 'plan-and-execute-v2' }],
  },
  Summarizer: {
    description: 'Condenses long text into its key points.',
    tone: 'clinical',
    avatar: { type: 'emoji', data: { value: '📝' } },
    inputPlaceholder: 'Paste the text to summarize',
    commands: [
      { name: 'Summarize', prompt: 'Summarize the key points of this text in at most five bullets:\n\n{{ input }}', mode: 'default' },
      {
        name: 'Action items',
        prompt: 'List the action items in this text as JSON {"items": [{"task", "owner"}]}:\n\n{{ input }}',
        mode: 'json',
      },
    ],
  },
  Translator: {
    description: 'Translates text while keeping its tone.',
    tone: 'formal',
    avatar: { type: 'emoji', data: { value: '🌐' } },
    inputPlaceholder: 'Paste the text to translate',
    commands: [
      { name: 'Translate', prompt: "Translate this text into the agent's language, keeping its tone:\n\n{{ input }}", mode: 'default' },
    ],
  },
};
