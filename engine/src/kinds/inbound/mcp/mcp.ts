/**
 * "Called by an assistant" (`mcp`): the automation is offered as a tool of the host's MCP endpoint
 * (docs/mcp.md "Automations as tools") to the members who may run it. The trigger names the tool
 * (`toolName`, snake_case), says what it does (`description`, what the model reads) and declares
 * its input (`inputSchema`, a JSON Schema object whose properties are of simple types). A call's
 * arguments are the run's variables: `trigger.<property>`. A `filter` is evaluated when the tool is
 * called: a refused call starts no run.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { DefinitionProblem } from '../../../definition/validate';
import type { TriggerBase } from '../../../definition/types';
import { defineTrigger } from '../../kind';
import { Dict, Enum, VALUE_NAME } from '../../parts';

/** The JSON Schema types a tool's input property may have. */
export const MCP_INPUT_TYPES = ['string', 'number', 'integer', 'boolean'] as const;
/** The pattern of a tool name: snake_case, a letter first, at most 48 characters. */
export const MCP_TOOL_NAME = '^[a-z][a-z0-9_]{0,47}$';

const property = Type.Object(
  {
    type: Enum(MCP_INPUT_TYPES, { title: 'Type' }),
    title: Type.Optional(Type.String({ maxLength: 200, title: 'Title' })),
    description: Type.Optional(Type.String({ maxLength: 1000, title: 'Description' })),
    enum: Type.Optional(
      Type.Array(Type.Union([Type.String({ maxLength: 200 }), Type.Number()], { title: 'Value' }), {
        minItems: 1,
        maxItems: 100,
        uniqueItems: true,
        title: 'Allowed values',
      }),
    ),
    default: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Number(), Type.Boolean()], { title: 'Default' })),
  },
  { additionalProperties: false, title: 'Property' },
);

const inputSchema = Type.Object(
  {
    type: Type.Literal('object', { title: 'Type' }),
    properties: Dict(property, { maxProperties: 50, title: 'Properties', propertyNames: { pattern: VALUE_NAME } }),
    required: Type.Optional(
      Type.Array(Type.String({ pattern: VALUE_NAME, title: 'Property name' }), { maxItems: 50, uniqueItems: true, title: 'Required' }),
    ),
  },
  {
    additionalProperties: false,
    title: 'Input schema',
    description:
      'A JSON Schema object: {"type": "object", "properties": {"<name>": {"type": "string", "description": "…"}}, "required": ["<name>"]}; ' +
      'properties are string, number, integer or boolean. The arguments are trigger.<name>.',
    'x-editor': 'json',
  },
);

const parameters = Type.Object({
  toolName: Type.Optional(
    Type.String({
      pattern: MCP_TOOL_NAME,
      title: 'Tool name',
      description: 'snake_case, unique in the workspace; the tool is automation_<name>. Default: from the automation name.',
    }),
  ),
  description: Type.String({
    minLength: 1,
    maxLength: 2000,
    title: 'What the tool does',
    description: 'What the assistant reads to decide when to call it.',
  }),
  inputSchema: Type.Optional(inputSchema),
});

/** The fields of an `mcp` trigger (see the module comment). */
export type McpTriggerFields = Static<typeof parameters>;
/** A tool's input schema, as the trigger declares it. */
export type McpInputSchema = Static<typeof inputSchema>;

/** What the schema cannot say: every `required` name is a property, `enum` values fit the type. */
function inputProblems(trigger: McpTriggerFields): DefinitionProblem[] {
  const schema = trigger.inputSchema;
  if (!schema) return [];
  const problems: DefinitionProblem[] = [];
  (schema.required ?? []).forEach((name, i) => {
    if (!(name in schema.properties))
      problems.push({
        path: `trigger.inputSchema.required[${i}]`,
        reason: 'invalid_value',
        message: `trigger.inputSchema.required[${i}]: '${name}' is not one of the properties`,
      });
  });
  for (const [name, p] of Object.entries(schema.properties)) {
    const want = p.type === 'string' ? 'string' : p.type === 'boolean' ? 'boolean' : 'number';
    const values = [...(p.enum ?? []), ...(p.default === undefined ? [] : [p.default])];
    if (values.some((v) => typeof v !== want))
      problems.push({
        path: `trigger.inputSchema.properties.${name}`,
        reason: 'invalid_value',
        message: `trigger.inputSchema.properties.${name}: enum and default values must be of type ${p.type}`,
      });
  }
  return problems;
}

/** `mcp`. */
export const MCP_KIND = defineTrigger({
  type: 'mcp',
  title: 'Called by an assistant',
  summary: "When an assistant calls the automation's tool over MCP.",
  category: 'Inbound',
  icon: 'bot',
  source: 'call',
  parameters,
  variables: (trigger) => ({ names: Object.keys((trigger.inputSchema as McpInputSchema | undefined)?.properties ?? {}), open: false }),
  check: (trigger) => inputProblems(trigger as unknown as McpTriggerFields),
});

/** Fires when an assistant calls the automation's tool at the host's MCP endpoint. */
export type McpTrigger = TriggerBase & { type: 'mcp' } & McpTriggerFields;

declare module '../../../definition/types' {
  /** The MCP tool trigger (see {@link TriggerTypes}). */
  interface TriggerTypes {
    mcp: McpTrigger;
  }
}
