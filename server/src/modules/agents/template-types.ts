/**
 * The template types of the real service's public API document (its 68 `data.template.type`
 * values, in its order). Every one is accepted; the first few have hand-written presets (`template-presets.ts`),
 * the others a one-command preset from `ROLE_TEMPLATES` (`role-templates.ts`).
 */
export const DOCUMENT_TEMPLATE_TYPES = [
  'Tasker',
  'Researcher',
  'Marketer',
  'EmailWriter',
  'Sales',
  'CustomerSupport',
  'ProjectManager',
  'ContentCreator',
  'Copywriter',
  'LegalAdvisor',
  'SeoSpecialist',
  'ProductivityCoach',
  'EngineeringExpert',
  'Translator',
  'Summarizer',
  'ResumeBuilder',
  'Storyteller',
  'Tutor',
  'BrandStrategist',
  'SocialMediaSpecialist',
  'BusinessStrategist',
  'FinancialAnalyst',
  'HumanResourcesManager',
  'DataScientist',
  'ITConsultant',
  'FinancialAdvisor',
  'HealthCoach',
  'SustainabilityConsultant',
  'UXDesigner',
  'QualityAssuranceAnalyst',
  'ProductManager',
  'GrowthHacker',
  'BusinessDevelopmentManager',
  'PublicRelationsSpecialist',
  'EventPlanner',
  'DataAnalyst',
  'Editor',
  'CEO',
  'InterviewCoach',
  'TechSupportAdvisor',
  'Doctor',
  'BlogExpert',
  'TweetOptimizer',
  'EmailMarketer',
  'CourseCreator',
  'ScriptCreator',
  'ScreenplayWriter',
  'Proofreader',
  'SalesColdEmailCoach',
  'CodeExplainer',
  'CreativeWritingCoach',
  'AdvertisingCopywriter',
  'VideoScriptWriter',
  'ProjectArchitect',
  'AICouncil',
  'Negotiator',
  'VCAssociate',
  'Books',
  'StartupMentor',
  'SmallBusiness',
  'WebDevelopment',
  'PromptEngineer',
  'ArticleWriter',
  'WorkflowAgent',
  'StrategyAgent',
  'ViralAgent',
  'SOPOnboardingAgent',
  'PressReleaseAgent',
] as const;

/** Our own earlier template types that the document does not list; still accepted. */
export const EXTRA_TEMPLATE_TYPES = ['Writer', 'Planner'] as const;

/** Every accepted template type: the document's 68, then ours. */
export const AGENT_TEMPLATE_TYPES = [...DOCUMENT_TEMPLATE_TYPES, ...EXTRA_TEMPLATE_TYPES] as const;
/** One of {@link AGENT_TEMPLATE_TYPES}. */
export type AgentTemplateType = (typeof AGENT_TEMPLATE_TYPES)[number];

/** The template types with hand-written presets (`template-presets.ts`). */
export type DetailedTemplate = 'Tasker' | 'Researcher' | 'Writer' | 'Planner' | 'Summarizer' | 'Translator';
/** The template types with a one-command preset (`role-templates.ts`). */
export type RoleTemplateType = Exclude<AgentTemplateType, DetailedTemplate>;
