import type { AgentDataInput } from './agent-data';
import { ROLE_TEMPLATES } from './role-templates';
import { DETAILED_TEMPLATES } from './template-presets';
import type { AgentTemplateType, DetailedTemplate, RoleTemplateType } from './template-types';

export { AGENT_TEMPLATE_TYPES, DOCUMENT_TEMPLATE_TYPES, EXTRA_TEMPLATE_TYPES, type AgentTemplateType } from './template-types';

/**
 * Built-in agent templates: `POST /folders/{folderId}/agents` with
 * `{name, data: {type: 'template', template: {type}}}` creates a preset agent from one of these
 * instead of an empty one (README "Agents": template agents). Values written in `data.data` of the
 * same body are applied over the preset.
 */

/** The preset AgentData of a built-in template (a fresh copy; command ids are generated on create). */
export function agentTemplateData(type: AgentTemplateType): AgentDataInput {
  if (type in DETAILED_TEMPLATES) return structuredClone(DETAILED_TEMPLATES[type as DetailedTemplate]);
  const [emoji, tone, description, command, request] = ROLE_TEMPLATES[type as RoleTemplateType];
  return {
    description,
    tone,
    avatar: { type: 'emoji', data: { value: emoji } },
    inputPlaceholder: `${command}: describe what you need`,
    commands: [{ name: command, prompt: `${request}:\n\n{{ input }}`, mode: 'default' }],
  };
}
