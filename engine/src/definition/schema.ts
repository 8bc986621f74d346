/**
 * The published JSON Schema of an automation definition (draft-07), served at
 * `GET /api/v1/automations/schema` and applied by `validateDefinition`.
 */
import { TASK_FIND_MAX_LIMIT } from './service-actions';
import {
  EVENT_TRIGGER_TYPES,
  FORM_FIELD_TYPES,
  HTTP_METHODS,
  LOOP_LIMITS,
  OPERATORS,
  RUN_EVENT_TRIGGER_TYPES,
  TRIGGER_TYPES,
  WEBHOOK_METHODS,
  WEBHOOK_VERIFY_TYPES,
} from './types';

const STEP_ID = '^[A-Za-z][A-Za-z0-9_]{0,63}$';
/** Names of computed values, form fields and sub-run inputs. */
const VALUE_NAME = '^[A-Za-z_][A-Za-z0-9_]{0,63}$';
/** The name of an event a `wait.event` step waits for. */
export const EVENT_NAME = '^[A-Za-z0-9_.-]{1,100}$';
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$";
const templ = { type: 'string', maxLength: 20000 } as const;
const idish = { type: 'string', minLength: 1, maxLength: 2000 } as const;
const retry = {
  type: 'object',
  additionalProperties: false,
  properties: {
    maxAttempts: { type: 'integer', minimum: 1, maximum: 20 },
    initialDelayMs: { type: 'integer', minimum: 0, maximum: 86_400_000 },
    factor: { type: 'number', minimum: 1, maximum: 10 },
    maxDelayMs: { type: 'integer', minimum: 0, maximum: 86_400_000 },
  },
} as const;
/** A step attempt's time limit, in ms (steps that do work). */
const stepTimeout = { type: 'integer', minimum: 1, maximum: 300_000 } as const;
const base = {
  id: { type: 'string', pattern: STEP_ID },
  name: { type: 'string', maxLength: 200 },
  retry,
  disabled: { type: 'boolean' },
  onError: {
    oneOf: [
      { enum: ['fail', 'continue'] },
      {
        type: 'object',
        required: ['then'],
        additionalProperties: false,
        properties: { then: { type: 'array', minItems: 1, maxItems: 200, items: { $ref: '#/definitions/action' } } },
      },
    ],
  },
} as const;

/** One action kind as an if/then clause: the schema applies only to actions of that type, so errors name the right fields. */
function action(
  type: string | readonly string[],
  required: string[],
  properties: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  const kind = typeof type === 'string' ? { const: type } : { enum: type };
  return {
    if: { required: ['type'], properties: { type: kind } },
    then: {
      type: 'object',
      required: ['type', ...required],
      additionalProperties: false,
      properties: { type: kind, ...base, ...properties },
      ...extra,
    },
  };
}

const datePoint = {
  type: 'object',
  required: ['date'],
  additionalProperties: false,
  properties: { date: templ, time: templ, timezone: templ },
} as const;
const scalarTemplate = { type: ['string', 'number', 'boolean'] } as const;
const actionList = { type: 'array', maxItems: 200, items: { $ref: '#/definitions/action' } } as const;

/**
 * The published JSON Schema (draft-07) of an automation definition. Served by the server at
 * `GET /api/v1/automations/schema`. {@link validateDefinition} applies it plus the checks a
 * schema cannot express (unique step ids, cron syntax, template syntax, static regexes).
 */
export const AUTOMATION_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://taskspace.dev/schemas/automation.json',
  title: 'Taskspace automation',
  type: 'object',
  required: ['name', 'trigger', 'actions'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[^\\r\\n]*$' },
    description: { type: 'string', maxLength: 2000 },
    trigger: { $ref: '#/definitions/trigger' },
    actions: actionList,
    timeoutMs: { type: 'integer', minimum: 1000, maximum: 2_592_000_000 },
    retention: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: { days: { type: 'integer', minimum: 1, maximum: 3650 }, failedDays: { type: 'integer', minimum: 1, maximum: 3650 } },
    },
    concurrency: { type: 'integer', minimum: 1, maximum: 1000 },
  },
  definitions: {
    trigger: {
      type: 'object',
      required: ['type'],
      properties: { type: { enum: TRIGGER_TYPES } },
      allOf: [
        {
          if: { required: ['type'], properties: { type: { enum: EVENT_TRIGGER_TYPES } } },
          then: {
            additionalProperties: false,
            properties: {
              type: {},
              scope: {
                type: 'object',
                additionalProperties: false,
                maxProperties: 1,
                properties: { projectId: idish, folderId: idish },
              },
              filter: { $ref: '#/definitions/conditions' },
            },
          },
        },
        {
          if: { required: ['type'], properties: { type: { enum: RUN_EVENT_TRIGGER_TYPES } } },
          then: {
            additionalProperties: false,
            properties: { type: {}, automationId: idish, filter: { $ref: '#/definitions/conditions' } },
          },
        },
        {
          if: { required: ['type'], properties: { type: { const: 'schedule' } } },
          then: {
            additionalProperties: false,
            properties: {
              type: {},
              cron: { type: 'string', minLength: 1, maxLength: 200 },
              everyMinutes: { type: 'integer', minimum: 1, maximum: 525_600 },
              timezone: { type: 'string', minLength: 1, maxLength: 100 },
            },
            oneOf: [{ required: ['cron'] }, { required: ['everyMinutes'] }],
          },
        },
        {
          if: { required: ['type'], properties: { type: { const: 'webhook' } } },
          then: {
            additionalProperties: false,
            properties: {
              type: {},
              requireToken: { type: 'boolean' },
              methods: {
                type: 'array',
                minItems: 1,
                maxItems: WEBHOOK_METHODS.length,
                uniqueItems: true,
                items: { enum: WEBHOOK_METHODS },
              },
              verify: { $ref: '#/definitions/webhookVerify' },
            },
          },
        },
        {
          if: { required: ['type'], properties: { type: { const: 'form' } } },
          then: {
            required: ['title', 'fields'],
            additionalProperties: false,
            properties: {
              type: {},
              title: { type: 'string', minLength: 1, maxLength: 200 },
              description: { type: 'string', maxLength: 2000 },
              fields: { type: 'array', minItems: 1, maxItems: 50, items: { $ref: '#/definitions/formField' } },
              submitLabel: { type: 'string', minLength: 1, maxLength: 100 },
              thankYou: { type: 'string', maxLength: 2000 },
              redirectUrl: { type: 'string', minLength: 1, maxLength: 2000, pattern: '^https?://' },
              requireToken: { type: 'boolean' },
            },
          },
        },
      ],
    },
    webhookVerify: {
      type: 'object',
      required: ['type', 'secret'],
      additionalProperties: false,
      properties: {
        type: { enum: WEBHOOK_VERIFY_TYPES },
        secret: { type: 'string', pattern: '^[A-Z][A-Z0-9_]{0,63}$' },
        header: { type: 'string', pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$" },
        encoding: { enum: ['hex', 'base64'] },
        prefix: { type: 'string', maxLength: 50 },
        toleranceSeconds: { type: 'integer', minimum: 1, maximum: 86_400 },
      },
      if: { properties: { type: { const: 'hmac-sha256' } } },
      then: { required: ['header'] },
      else: { not: { anyOf: [{ required: ['header'] }, { required: ['encoding'] }, { required: ['prefix'] }] } },
    },
    formField: {
      type: 'object',
      required: ['name', 'label', 'type'],
      additionalProperties: false,
      properties: {
        name: { type: 'string', pattern: VALUE_NAME },
        label: { type: 'string', minLength: 1, maxLength: 200 },
        type: { enum: FORM_FIELD_TYPES },
        required: { type: 'boolean' },
        options: { type: 'array', minItems: 1, maxItems: 100, uniqueItems: true, items: { type: 'string', minLength: 1, maxLength: 200 } },
        multiline: { type: 'boolean' },
        help: { type: 'string', maxLength: 500 },
        placeholder: { type: 'string', maxLength: 200 },
      },
    },
    rule: {
      type: 'object',
      required: ['left', 'operator'],
      additionalProperties: false,
      properties: { left: scalarTemplate, operator: { enum: OPERATORS }, right: scalarTemplate },
    },
    conditions: {
      type: 'object',
      required: ['anyOf'],
      additionalProperties: false,
      properties: {
        anyOf: {
          type: 'array',
          minItems: 1,
          maxItems: 50,
          items: {
            type: 'object',
            required: ['allOf'],
            additionalProperties: false,
            properties: { allOf: { type: 'array', minItems: 1, maxItems: 50, items: { $ref: '#/definitions/rule' } } },
          },
        },
      },
    },
    action: {
      type: 'object',
      required: ['type'],
      properties: {
        type: {
          enum: [
            'task.create',
            'task.update',
            'task.complete',
            'task.uncomplete',
            'task.delete',
            'task.assign',
            'task.setDate',
            'task.setNote',
            'task.setField',
            'task.move',
            'task.get',
            'task.find',
            'comment.create',
            'project.create',
            'http.request',
            'agent.command',
            'set',
            'code',
            'respond',
            'automation.run',
            'branch',
            'approval',
            'delay',
            'loop',
            'wait.event',
            'parallel',
          ],
        },
      },
      allOf: [
        action('task.create', ['projectId', 'text'], {
          projectId: templ,
          text: templ,
          referenceTaskId: templ,
          placement: templ,
          timeoutMs: stepTimeout,
        }),
        action('task.update', ['projectId', 'taskId', 'text'], { projectId: templ, taskId: templ, text: templ, timeoutMs: stepTimeout }),
        action(['task.complete', 'task.uncomplete', 'task.delete'], ['projectId', 'taskId'], {
          projectId: templ,
          taskId: templ,
          timeoutMs: stepTimeout,
        }),
        action('task.assign', ['projectId', 'taskId', 'handles'], {
          projectId: templ,
          taskId: templ,
          handles: { anyOf: [templ, { type: 'array', maxItems: 100, items: templ }] },
          timeoutMs: stepTimeout,
        }),
        action(
          'task.setDate',
          ['projectId', 'taskId'],
          { projectId: templ, taskId: templ, start: datePoint, end: datePoint, timeoutMs: stepTimeout },
          { anyOf: [{ required: ['start'] }, { required: ['end'] }] },
        ),
        action('task.setNote', ['projectId', 'taskId', 'value'], {
          projectId: templ,
          taskId: templ,
          value: templ,
          noteType: templ,
          timeoutMs: stepTimeout,
        }),
        action('task.setField', ['projectId', 'taskId', 'fieldId', 'value'], {
          projectId: templ,
          taskId: templ,
          fieldId: templ,
          value: scalarTemplate,
          timeoutMs: stepTimeout,
        }),
        action('task.move', ['projectId', 'taskId', 'targetTaskId', 'position'], {
          projectId: templ,
          taskId: templ,
          targetTaskId: templ,
          position: templ,
          timeoutMs: stepTimeout,
        }),
        action('comment.create', ['projectId', 'taskId', 'text'], { projectId: templ, taskId: templ, text: templ, timeoutMs: stepTimeout }),
        action('task.get', ['projectId', 'taskId'], { projectId: templ, taskId: templ, timeoutMs: stepTimeout }),
        action('task.find', ['projectId'], {
          projectId: templ,
          filter: {
            type: 'object',
            additionalProperties: false,
            properties: {
              text: templ,
              completed: { type: ['boolean', 'string'], maxLength: 20000 },
              assignee: templ,
              field: {
                type: 'object',
                required: ['fieldId', 'value'],
                additionalProperties: false,
                properties: { fieldId: templ, value: scalarTemplate },
              },
            },
          },
          limit: { type: 'integer', minimum: 1, maximum: TASK_FIND_MAX_LIMIT },
          after: templ,
          timeoutMs: stepTimeout,
        }),
        action('project.create', ['name'], {
          folderId: templ,
          name: { type: 'string', minLength: 1, maxLength: 20000 },
          content: templ,
          timeoutMs: stepTimeout,
        }),
        action('http.request', ['method', 'url'], {
          method: { enum: HTTP_METHODS },
          url: { type: 'string', minLength: 1, maxLength: 8000 },
          query: { type: 'object', maxProperties: 100, additionalProperties: templ },
          headers: { type: 'object', maxProperties: 100, additionalProperties: templ },
          body: {
            oneOf: [
              {
                type: 'object',
                required: ['type', 'value'],
                additionalProperties: false,
                properties: { type: { const: 'json' }, value: {} },
              },
              {
                type: 'object',
                required: ['type', 'fields'],
                additionalProperties: false,
                properties: { type: { const: 'form' }, fields: { type: 'object', maxProperties: 200, additionalProperties: templ } },
              },
              {
                type: 'object',
                required: ['type', 'value'],
                additionalProperties: false,
                properties: {
                  type: { const: 'raw' },
                  value: { type: 'string', maxLength: 1_000_000 },
                  contentType: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[^\\r\\n]*$' },
                },
              },
            ],
          },
          followRedirects: { type: 'boolean' },
          maxRedirects: { type: 'integer', minimum: 1, maximum: 10 },
          timeoutMs: { type: 'integer', minimum: 1, maximum: 300_000 },
          failOnHttpError: { type: 'boolean' },
        }),
        action('agent.command', ['agentId', 'command'], { agentId: templ, command: templ, input: templ, timeoutMs: stepTimeout }),
        action('set', ['values'], {
          values: {
            type: 'object',
            minProperties: 1,
            maxProperties: 100,
            propertyNames: { pattern: VALUE_NAME },
            additionalProperties: {},
          },
        }),
        action('code', ['code'], {
          code: { type: 'string', minLength: 1, maxLength: 100_000 },
          input: {},
          timeoutMs: { type: 'integer', minimum: 1, maximum: 30_000 },
          memoryMb: { type: 'integer', minimum: 1, maximum: 128 },
        }),
        action('respond', [], {
          status: { type: 'integer', minimum: 200, maximum: 599 },
          headers: { type: 'object', maxProperties: 50, propertyNames: { pattern: HEADER_NAME }, additionalProperties: templ },
          body: {},
        }),
        action('automation.run', ['automationId'], {
          automationId: templ,
          input: { type: 'object', maxProperties: 100, propertyNames: { pattern: VALUE_NAME }, additionalProperties: {} },
          wait: { type: 'boolean' },
        }),
        action('parallel', ['branches'], {
          branches: {
            type: 'object',
            minProperties: 2,
            maxProperties: 10,
            propertyNames: { pattern: VALUE_NAME },
            additionalProperties: { ...actionList, minItems: 1 },
          },
          join: { enum: ['all', 'first'] },
        }),
        action('wait.event', ['event'], {
          event: { type: 'string', pattern: EVENT_NAME },
          timeoutMinutes: { type: 'number', exclusiveMinimum: 0, maximum: 525_600 },
        }),
        action('branch', ['conditions'], { conditions: { $ref: '#/definitions/conditions' }, then: actionList, else: actionList }),
        action('approval', [], {
          message: templ,
          approvers: { type: 'array', maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 100 } },
          timeoutMinutes: { type: 'number', exclusiveMinimum: 0, maximum: 525_600 },
          onTimeout: { enum: ['approve', 'reject'] },
          onReject: { enum: ['end', 'else'] },
          then: actionList,
          else: actionList,
        }),
        action('loop', ['items', 'actions'], {
          items: { anyOf: [templ, { type: 'array', maxItems: LOOP_LIMITS.maxIterations }] },
          maxIterations: { type: 'integer', minimum: 1, maximum: LOOP_LIMITS.maxIterations },
          actions: actionList,
        }),
        action(
          'delay',
          [],
          {
            seconds: { type: 'number', minimum: 0 },
            minutes: { type: 'number', minimum: 0 },
            hours: { type: 'number', minimum: 0 },
            days: { type: 'number', minimum: 0, maximum: 3650 },
            until: templ,
          },
          {
            anyOf: [
              { required: ['seconds'] },
              { required: ['minutes'] },
              { required: ['hours'] },
              { required: ['days'] },
              { required: ['until'] },
            ],
          },
        ),
      ],
    },
  },
} as const;
