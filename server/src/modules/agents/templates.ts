import type { AgentDataInput, Tone } from './agent-data';

/**
 * Built-in agent templates: `POST /folders/{folderId}/agents` with
 * `{name, data: {type: 'template', template: {type}}}` creates a preset agent from one of these
 * instead of an empty one (README "Agents": template agents). Values written in `data.data` of the
 * same body are applied over the preset.
 */

/**
 * The template types of the real service's public API document (its 68 `data.template.type`
 * values, in its order). Every one is accepted; the first few have hand-written presets below,
 * the others a one-command preset from {@link ROLE_TEMPLATES}.
 */
export const DOCUMENT_TEMPLATE_TYPES = [
  'Tasker', 'Researcher', 'Marketer', 'EmailWriter', 'Sales', 'CustomerSupport', 'ProjectManager', 'ContentCreator', 'Copywriter',
  'LegalAdvisor', 'SeoSpecialist', 'ProductivityCoach', 'EngineeringExpert', 'Translator', 'Summarizer', 'ResumeBuilder', 'Storyteller',
  'Tutor', 'BrandStrategist', 'SocialMediaSpecialist', 'BusinessStrategist', 'FinancialAnalyst', 'HumanResourcesManager', 'DataScientist',
  'ITConsultant', 'FinancialAdvisor', 'HealthCoach', 'SustainabilityConsultant', 'UXDesigner', 'QualityAssuranceAnalyst', 'ProductManager',
  'GrowthHacker', 'BusinessDevelopmentManager', 'PublicRelationsSpecialist', 'EventPlanner', 'DataAnalyst', 'Editor', 'CEO',
  'InterviewCoach', 'TechSupportAdvisor', 'Doctor', 'BlogExpert', 'TweetOptimizer', 'EmailMarketer', 'CourseCreator', 'ScriptCreator',
  'ScreenplayWriter', 'Proofreader', 'SalesColdEmailCoach', 'CodeExplainer', 'CreativeWritingCoach', 'AdvertisingCopywriter',
  'VideoScriptWriter', 'ProjectArchitect', 'AICouncil', 'Negotiator', 'VCAssociate', 'Books', 'StartupMentor', 'SmallBusiness',
  'WebDevelopment', 'PromptEngineer', 'ArticleWriter', 'WorkflowAgent', 'StrategyAgent', 'ViralAgent', 'SOPOnboardingAgent',
  'PressReleaseAgent',
] as const;

/** Our own earlier template types that the document does not list; still accepted. */
export const EXTRA_TEMPLATE_TYPES = ['Writer', 'Planner'] as const;

/** Every accepted template type: the document's 68, then ours. */
export const AGENT_TEMPLATE_TYPES = [...DOCUMENT_TEMPLATE_TYPES, ...EXTRA_TEMPLATE_TYPES] as const;
/** One of {@link AGENT_TEMPLATE_TYPES}. */
export type AgentTemplateType = (typeof AGENT_TEMPLATE_TYPES)[number];

/** The hand-written presets. */
type DetailedTemplate = 'Tasker' | 'Researcher' | 'Writer' | 'Planner' | 'Summarizer' | 'Translator';

const TEMPLATES: Readonly<Record<DetailedTemplate, AgentDataInput>> = {
  Tasker: {
    description: 'Turns goals and notes into clear, actionable tasks.',
    tone: 'confident',
    avatar: { type: 'emoji', data: { value: '✅' } },
    inputPlaceholder: 'Describe what needs to get done',
    commands: [
      { name: 'Break down', prompt: 'Break this goal down into a short list of concrete tasks, one per line:\n\n{{ input }}', mode: 'default' },
      { name: 'Next step', prompt: 'What is the single next action to move this forward?\n\n{{ input }}', mode: 'default' },
    ],
  },
  Researcher: {
    description: 'Investigates a question and reports findings with their sources and open points.',
    tone: 'serious',
    avatar: { type: 'emoji', data: { value: '🔎' } },
    inputPlaceholder: 'Ask a research question',
    commands: [
      { name: 'Research', prompt: 'Research this question. Plan the steps, then report findings, sources and open questions:\n\n{{ input }}', mode: 'plan-and-execute-v1' },
      { name: 'Compare', prompt: 'Compare the options below in a table of pros and cons, then recommend one:\n\n{{ input }}', mode: 'default' },
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
      { name: 'Action items', prompt: 'List the action items in this text as JSON {"items": [{"task", "owner"}]}:\n\n{{ input }}', mode: 'json' },
    ],
  },
  Translator: {
    description: 'Translates text while keeping its tone.',
    tone: 'formal',
    avatar: { type: 'emoji', data: { value: '🌐' } },
    inputPlaceholder: 'Paste the text to translate',
    commands: [{ name: 'Translate', prompt: "Translate this text into the agent's language, keeping its tone:\n\n{{ input }}", mode: 'default' }],
  },
};

/**
 * A one-command preset: `[emoji, tone, description, command name, what the command asks for]`.
 * The command's prompt is the request followed by a blank line and `{{ input }}`.
 */
type RoleTemplate = readonly [emoji: string, tone: Tone, description: string, command: string, request: string];

const ROLE_TEMPLATES: Readonly<Record<Exclude<AgentTemplateType, DetailedTemplate>, RoleTemplate>> = {
  Marketer: ['📣', 'inspiring', 'Plans campaigns and positioning that reach the right audience.', 'Campaign plan', 'Draft a marketing campaign plan (audience, message, channels, timeline) for'],
  EmailWriter: ['✉️', 'friendly', 'Writes clear, well-structured emails.', 'Write email', 'Write a clear, concise email for this purpose'],
  Sales: ['🤝', 'confident', 'Helps qualify leads, handle objections and close deals.', 'Sales pitch', 'Write a short sales pitch, with answers to likely objections, for'],
  CustomerSupport: ['🎧', 'empathetic', 'Answers customer questions politely and precisely.', 'Reply to customer', 'Write a helpful, polite reply to this customer message'],
  ProjectManager: ['📋', 'authoritative', 'Organises scope, milestones, owners and risks of projects.', 'Project plan', 'Turn this into a project plan with milestones, owners and risks'],
  ContentCreator: ['🎨', 'creative', 'Comes up with content ideas and drafts posts.', 'Content ideas', 'Suggest ten content ideas, each with a hook, about'],
  Copywriter: ['🖋️', 'playful', 'Writes persuasive copy for pages, ads and products.', 'Write copy', 'Write persuasive copy (headline, subheadline, body, call to action) for'],
  LegalAdvisor: ['⚖️', 'formal', 'Explains legal questions in plain language (not a substitute for a lawyer).', 'Explain', 'Explain the legal points and risks of the following in plain language, noting where a lawyer is needed'],
  SeoSpecialist: ['🔍', 'clinical', 'Improves content for search engines.', 'SEO review', 'Suggest keywords, a title, a meta description and improvements for search engines for'],
  ProductivityCoach: ['⏱️', 'optimistic', 'Helps people plan their time and focus on what matters.', 'Plan my day', 'Make a realistic, prioritised schedule from'],
  EngineeringExpert: ['🛠️', 'serious', 'Answers technical and engineering questions with reasoning.', 'Solve', 'Work through this engineering problem step by step and give a recommendation'],
  ResumeBuilder: ['📄', 'formal', 'Writes and improves résumés and cover letters.', 'Improve résumé', 'Rewrite this résumé content with strong, quantified bullet points'],
  Storyteller: ['📖', 'emotional', 'Tells engaging stories.', 'Tell a story', 'Write a short, engaging story about'],
  Tutor: ['🎓', 'sympathetic', 'Teaches a topic step by step and checks understanding.', 'Explain', 'Explain this topic step by step for a beginner, then ask three questions to check understanding'],
  BrandStrategist: ['🏷️', 'inspiring', 'Shapes brand identity, voice and positioning.', 'Brand brief', 'Write a brand brief (positioning, values, voice, tagline ideas) for'],
  SocialMediaSpecialist: ['📱', 'casual', 'Writes posts and plans for social networks.', 'Write posts', 'Write three social media posts, each adapted to its network, about'],
  BusinessStrategist: ['♟️', 'authoritative', 'Analyses markets and recommends strategy.', 'Strategy', 'Analyse this business situation (strengths, weaknesses, options) and recommend a strategy'],
  FinancialAnalyst: ['📊', 'clinical', 'Analyses financial figures and trends.', 'Analyse', 'Analyse these financial figures and summarise the trends, risks and key ratios'],
  HumanResourcesManager: ['🧑‍💼', 'empathetic', 'Helps with hiring, onboarding and people questions.', 'HR help', 'Draft an HR answer or document (policy, job description, feedback) for'],
  DataScientist: ['🧪', 'serious', 'Designs analyses and models for data questions.', 'Analysis plan', 'Propose an analysis plan (data, methods, validation) for'],
  ITConsultant: ['💻', 'confident', 'Advises on IT systems, tools and infrastructure.', 'Advise', 'Recommend an IT solution, with trade-offs, for'],
  FinancialAdvisor: ['💰', 'tentative', 'Explains personal finance options (not financial advice).', 'Explain options', 'Explain the options, costs and risks, without giving personal financial advice, for'],
  HealthCoach: ['🏃', 'warm', 'Encourages healthy habits (not medical advice).', 'Habit plan', 'Suggest a gentle, realistic healthy-habit plan, without medical advice, for'],
  SustainabilityConsultant: ['🌱', 'optimistic', 'Finds ways to reduce environmental impact.', 'Reduce impact', 'Suggest practical ways to reduce the environmental impact of'],
  UXDesigner: ['🧭', 'creative', 'Improves user experience and interfaces.', 'UX review', 'Review this product or flow for usability problems and suggest improvements'],
  QualityAssuranceAnalyst: ['🧾', 'clinical', 'Writes test plans and finds edge cases.', 'Test cases', 'Write test cases, including edge cases, for'],
  ProductManager: ['🧩', 'confident', 'Turns ideas into clear product requirements.', 'Write spec', 'Write a product spec (problem, users, requirements, success metrics) for'],
  GrowthHacker: ['🚀', 'playful', 'Finds cheap, fast experiments to grow a product.', 'Growth ideas', 'Suggest growth experiments, each with its metric and cost, for'],
  BusinessDevelopmentManager: ['🤲', 'confident', 'Finds partners and opportunities.', 'Opportunities', 'List partnership and business opportunities, with a first outreach step, for'],
  PublicRelationsSpecialist: ['🗞️', 'formal', 'Handles messaging to press and public.', 'PR statement', 'Write a public statement for'],
  EventPlanner: ['🎉', 'optimistic', 'Plans events from venue to schedule.', 'Plan event', 'Plan this event: schedule, checklist and budget items'],
  DataAnalyst: ['📈', 'clinical', 'Turns data into findings and charts to make.', 'Findings', 'Summarise the key findings and suggest charts for this data'],
  Editor: ['✂️', 'formal', 'Edits text for clarity, structure and style.', 'Edit', 'Edit this text for clarity, structure and style, keeping its meaning'],
  CEO: ['👔', 'authoritative', 'Thinks about priorities, vision and decisions at company level.', 'Decide', 'As a chief executive, weigh the options and decide on'],
  InterviewCoach: ['🎤', 'sympathetic', 'Prepares people for interviews.', 'Practice questions', 'Write likely interview questions, with tips for answering, for'],
  TechSupportAdvisor: ['🧰', 'empathetic', 'Troubleshoots technical problems step by step.', 'Troubleshoot', 'Give step-by-step troubleshooting for this problem'],
  Doctor: ['🩺', 'clinical', 'Explains health topics in plain language (not a diagnosis; see a doctor).', 'Explain', 'Explain this health question in plain language, without diagnosing, and say when to see a doctor'],
  BlogExpert: ['📰', 'informal', 'Plans and writes blog posts.', 'Blog post', 'Write a blog post outline and introduction about'],
  TweetOptimizer: ['🐦', 'playful', 'Makes short posts punchier.', 'Optimise', 'Rewrite this as three punchy short posts under 280 characters'],
  EmailMarketer: ['📬', 'friendly', 'Writes newsletters and email campaigns.', 'Email campaign', 'Write an email campaign (subject lines, body, call to action) for'],
  CourseCreator: ['🧑‍🏫', 'inspiring', 'Designs courses and lessons.', 'Course outline', 'Design a course outline with modules, lessons and exercises for'],
  ScriptCreator: ['🎬', 'creative', 'Writes scripts for talks, ads and videos.', 'Write script', 'Write a script for'],
  ScreenplayWriter: ['🎞️', 'emotional', 'Writes screenplay scenes with dialogue.', 'Write scene', 'Write a screenplay scene, in standard format, about'],
  Proofreader: ['🔤', 'clinical', 'Fixes spelling, grammar and punctuation.', 'Proofread', 'Proofread this text and list every correction'],
  SalesColdEmailCoach: ['❄️', 'confident', 'Writes and critiques cold outreach emails.', 'Cold email', 'Write a short cold email, and a follow-up, for'],
  CodeExplainer: ['👩‍💻', 'informal', 'Explains what code does, line by line if needed.', 'Explain code', 'Explain what this code does and point out possible bugs'],
  CreativeWritingCoach: ['🪶', 'warm', 'Gives feedback and exercises for creative writing.', 'Feedback', 'Give constructive feedback and one exercise for this piece of writing'],
  AdvertisingCopywriter: ['📺', 'playful', 'Writes ad copy for every format.', 'Ad copy', 'Write ad copy variants (short, medium, long) for'],
  VideoScriptWriter: ['🎥', 'casual', 'Writes scripts for online videos.', 'Video script', 'Write a video script with hook, scenes and call to action for'],
  ProjectArchitect: ['🏗️', 'serious', 'Designs the structure of projects and systems.', 'Design', 'Design the structure (components, phases, dependencies) of'],
  AICouncil: ['🏛️', 'serious', 'Weighs a question from several expert viewpoints.', 'Deliberate', 'Discuss this from the viewpoints of several experts, then give a joint conclusion'],
  Negotiator: ['🤝', 'confident', 'Prepares negotiation strategies.', 'Prepare', 'Prepare a negotiation strategy (goals, walk-away point, concessions) for'],
  VCAssociate: ['💼', 'cynical', 'Evaluates startups the way an investor would.', 'Evaluate', 'Evaluate this startup as an investor would: market, team, traction, risks'],
  Books: ['📚', 'warm', 'Recommends and summarises books.', 'Recommend', 'Recommend books, with one line on each, for'],
  StartupMentor: ['🦄', 'optimistic', 'Guides founders through early-stage decisions.', 'Advise', 'Give practical early-stage startup advice on'],
  SmallBusiness: ['🏪', 'friendly', 'Helps small business owners with everyday decisions.', 'Help', 'Give practical small-business advice on'],
  WebDevelopment: ['🌐', 'informal', 'Helps build and debug websites.', 'Build', 'Explain how to build or fix this web feature, with code'],
  PromptEngineer: ['🧠', 'clinical', 'Writes and improves prompts for AI models.', 'Improve prompt', 'Rewrite this prompt to be clearer and more effective for an AI model'],
  ArticleWriter: ['📝', 'formal', 'Writes well-researched articles.', 'Write article', 'Write an article with headings about'],
  WorkflowAgent: ['🔁', 'confident', 'Designs repeatable workflows and automations.', 'Design workflow', 'Design a step-by-step workflow, with triggers and owners, for'],
  StrategyAgent: ['🎯', 'authoritative', 'Sets goals and the strategy to reach them.', 'Strategy', 'Set goals, key results and a strategy for'],
  ViralAgent: ['🔥', 'playful', 'Crafts ideas and hooks meant to spread.', 'Viral ideas', 'Suggest shareable ideas and hooks for'],
  SOPOnboardingAgent: ['🗂️', 'formal', 'Writes standard operating procedures and onboarding guides.', 'Write SOP', 'Write a standard operating procedure, step by step, for'],
  PressReleaseAgent: ['📰', 'formal', 'Writes press releases.', 'Press release', 'Write a press release, with headline, dateline and quote, for'],
};

/** The preset AgentData of a built-in template (a fresh copy; command ids are generated on create). */
export function agentTemplateData(type: AgentTemplateType): AgentDataInput {
  if (type in TEMPLATES) return structuredClone(TEMPLATES[type as DetailedTemplate]);
  const [emoji, tone, description, command, request] = ROLE_TEMPLATES[type as Exclude<AgentTemplateType, DetailedTemplate>];
  return {
    description,
    tone,
    avatar: { type: 'emoji', data: { value: emoji } },
    inputPlaceholder: `${command}: describe what you need`,
    commands: [{ name: command, prompt: `${request}:\n\n{{ input }}`, mode: 'default' }],
  };
}
