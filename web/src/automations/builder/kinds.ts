import { useQuery } from '@tanstack/react-query';
import type { KindLists } from '../../api/lists';
import type { paths } from '../../api/schema';
import { kindsQuery } from '../api';

/**
 * A JSON Schema as the service publishes it (draft-07 subset the builder reads): the kinds
 * catalogue's, with its editor annotations (`x-picker`, `x-editor`), and the automation schema's
 * (`GET /api/v1/automations/schema`: `$ref` into `definitions`, `allOf` of `if`/`then` clauses),
 * which the JSON view walks (`json/schema.ts`).
 */
export type JSONSchema = {
  $ref?: string;
  type?: string | string[];
  title?: string;
  description?: string;
  default?: unknown;
  examples?: unknown[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JSONSchema>;
  required?: string[];
  additionalProperties?: boolean | JSONSchema;
  items?: JSONSchema;
  oneOf?: JSONSchema[];
  anyOf?: JSONSchema[];
  allOf?: JSONSchema[];
  if?: JSONSchema;
  then?: JSONSchema;
  else?: JSONSchema;
  definitions?: Record<string, JSONSchema>;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
  format?: string;
  /** One of the pickers the engine publishes (catalogue `lists.pickers`). */
  'x-picker'?: KindLists['pickers'][number];
  /** A piece's dynamic dropdown: the server computes its choices (`POST /automations/kinds/{type}/options`). */
  'x-options'?: { refreshers?: string[]; dynamic?: boolean };
  /** `x-picker: connection`: the piece whose connections are offered. */
  'x-piece'?: string;
  /** One of the editors the engine publishes (catalogue `lists.editors`). */
  'x-editor'?: KindLists['editors'][number];
};

/** The catalogue as the API document declares it: its JSON Schema parts are free-form objects there. */
type ApiCatalogue = paths['/api/v1/automations/kinds']['get']['responses'][200]['content']['application/json'];

/** One trigger or action kind of the catalogue (`GET /api/v1/automations/kinds`), its schemas typed as {@link JSONSchema}. */
export type KindInfo = Omit<ApiCatalogue['triggers'][number], 'parameters' | 'output'> & {
  /** The kind's own fields (without the fields common to every action). */
  parameters: JSONSchema;
  /** The step's output, or the trigger's variables. */
  output?: JSONSchema;
};

/** The catalogue of kinds the service runs. */
export type Catalogue = Omit<ApiCatalogue, 'triggers' | 'actions' | 'commonActionParameters'> & {
  triggers: KindInfo[];
  actions: KindInfo[];
  commonActionParameters: JSONSchema;
};

/**
 * The catalogue as the builder reads it. The API document declares its JSON Schema parts
 * (`parameters`, `output`, `commonActionParameters`) as free-form objects (a JSON Schema is not
 * expressible as an OpenAPI type); the one cast narrows them to the {@link JSONSchema} the builder reads.
 */
export const asCatalogue = (catalogue: ApiCatalogue): Catalogue => catalogue as Catalogue;

/** The kinds catalogue ({@link kindsQuery}, kept for the session: it changes only with the service's version). */
export function useKinds() {
  return useQuery({ ...kindsQuery(), select: asCatalogue });
}

/** Lookup helpers over a catalogue. */
export interface Kinds {
  catalogue: Catalogue;
  trigger(type: string): KindInfo | undefined;
  action(type: string): KindInfo | undefined;
  /** The step-list properties of an action kind. */
  nestedOf(type: string): readonly string[];
}

/** Indexes a catalogue by type. */
export function indexKinds(catalogue: Catalogue): Kinds {
  const triggers = new Map(catalogue.triggers.map((k) => [k.type, k]));
  const actions = new Map(catalogue.actions.map((k) => [k.type, k]));
  return {
    catalogue,
    trigger: (type) => triggers.get(type),
    action: (type) => actions.get(type),
    nestedOf: (type) => actions.get(type)?.nested ?? [],
  };
}
