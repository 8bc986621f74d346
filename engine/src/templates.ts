/**
 * Liquid templates (LiquidJS) over a run's variables: `trigger`, `steps.<id>`, `run`,
 * `automation` and `secrets` (README "Automations", "Variables").
 *
 * Strict where it protects, forgiving where a value is optional: a bare unknown variable or
 * property (`{{ trigger.nope }}`) and an unknown filter are errors, reported as a permanent step
 * error `TEMPLATE_ERROR` naming the variable, never rendered as empty; but a missing value may be
 * tested (`{% if x %}`, `{% unless x %}`, LiquidJS `lenientIf`) or given a fallback
 * (`{{ x | default: "none" }}`), which is how optional webhook fields and an approval's optional
 * comment are written. A loop with an `else` branch may walk a missing list too
 * (`{% for x in trigger.items %}…{% else %}none{% endfor %}` takes the `else` branch); one without
 * `else` keeps the error, so a misspelt list is not silently empty.
 * Objects and arrays output as JSON. A template that is exactly one output tag keeps its
 * value's type when used as a value (JSON bodies, field values, conditions).
 */
import { Context, Emitter, evalToken, ForTag, Liquid, toValueSync, Value, type Template } from 'liquidjs';
import { ActionError } from './errors';

/** The variables a template sees. */
export interface Scope {
  trigger: Record<string, unknown>;
  steps: Record<string, unknown>;
  run: Record<string, unknown>;
  automation: Record<string, unknown>;
  /** Inside a loop iteration: the current item, its 0-based index and the number of items. */
  loop?: { item: unknown; index: number; count: number };
  /** The workspace's secrets by name (`{{ secrets.NAME }}`), read before each step. */
  secrets?: Record<string, string>;
  /** Inside an error path (`onError: {then}`): the failure it handles, `{code, message, stepId, ...}`. */
  error?: Record<string, unknown>;
  /**
   * Told of every evaluation that read one or more secrets (see {@link SecretReads}); the
   * executor's {@link SecretMask} uses it to record values derived from secrets as their template.
   */
  [SECRET_READS]?: SecretReads;
}

/** The key of {@link Scope}'s secret-read observer (a symbol, so no template can reach it). */
export const SECRET_READS: unique symbol = Symbol('secretReads');

/**
 * Observer of templates that read secrets: called after an evaluation with its template, its
 * value and the names of the secrets it read (in order of first read).
 */
export type SecretReads = (template: string, value: unknown, names: string[]) => void;

type Compiled = { kind: 'literal'; text: string } | { kind: 'value'; value: Value } | { kind: 'text'; templates: Template[] };

const WHOLE = /^\{\{-?((?:(?!\}\}|\{\{)[\s\S])*?)-?\}\}$/;

/** Options of {@link Templates}. */
export interface TemplateOptions {
  /** Compiled templates kept in memory (default 2000). */
  cacheSize?: number;
  /** Longest time one render may take, in ms (default 1000). */
  renderLimitMs?: number;
}

/**
 * A view of `secrets` that notes, in `read`, the name of every secret a template reads (a
 * property read, an own-property check, or an enumeration that reads them all).
 */
function watchSecrets(secrets: Record<string, string>, read: string[]): Record<string, string> {
  const note = (name: string | symbol) => {
    if (typeof name === 'string' && Object.prototype.hasOwnProperty.call(secrets, name) && !read.includes(name)) read.push(name);
  };
  return new Proxy(secrets, {
    get(target, name) {
      note(name);
      return target[name as string];
    },
    getOwnPropertyDescriptor(target, name) {
      note(name);
      return Reflect.getOwnPropertyDescriptor(target, name);
    },
    ownKeys(target) {
      for (const name of Object.keys(target)) note(name);
      return Reflect.ownKeys(target);
    },
  });
}

/**
 * LiquidJS's `for`, except that a loop with an `else` branch over a missing (undefined or null)
 * collection renders that branch instead of failing as an unknown variable: the `else` is how
 * the author said the list may be absent, as `{% if %}` tests a missing value.
 */
class ForElseTag extends ForTag {
  override *render(ctx: Context, emitter: Emitter): Generator<unknown, void | string, Template[]> {
    if (this.elseTemplates.length > 0) {
      const collection: unknown = yield evalToken(this.collection, ctx, true);
      if (collection === undefined || collection === null) {
        yield this.liquid.renderer.renderTemplates(this.elseTemplates, ctx, emitter);
        return;
      }
    }
    return yield* super.render(ctx, emitter);
  }
}

/** A LiquidJS environment with strict variables and filters and a compile cache. */
export class Templates {
  private readonly liquid: Liquid;
  private readonly cache = new Map<string, Compiled>();
  private readonly cacheSize: number;

  constructor(options: TemplateOptions = {}) {
    this.cacheSize = options.cacheSize ?? 2000;
    this.liquid = new Liquid({
      strictVariables: true,
      lenientIf: true,
      strictFilters: true,
      ownPropertyOnly: true,
      parseLimit: 100_000,
      renderLimit: options.renderLimitMs ?? 1000,
      memoryLimit: 10_000_000,
      outputEscape: (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : (v as string)),
    });
    this.liquid.registerTag('for', ForElseTag);
  }

  private compile(template: string): Compiled {
    let compiled = this.cache.get(template);
    if (compiled) return compiled;
    if (!template.includes('{')) compiled = { kind: 'literal', text: template };
    else {
      const whole = WHOLE.exec(template);
      compiled = whole
        ? { kind: 'value', value: new Value(whole[1]!.trim(), this.liquid) }
        : { kind: 'text', templates: this.liquid.parse(template) };
    }
    if (this.cache.size >= this.cacheSize) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(template, compiled);
    return compiled;
  }

  /** The syntax error of `template` (unknown filter, unclosed tag...), or undefined when it parses. */
  check(template: string): string | undefined {
    try {
      this.compile(template);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  }

  private fail(template: string, error: unknown, field?: string): never {
    if (error instanceof ActionError) throw error;
    const message = (error as Error).message ?? String(error);
    const where = field === undefined ? '' : `${field}: `;
    throw new ActionError(
      'TEMPLATE_ERROR',
      `${where}template '${template.length > 200 ? template.slice(0, 200) + '…' : template}': ${message}`,
      false,
    );
  }

  private context(scope: Scope): Context {
    return new Context(scope as unknown as object, this.liquid.options, { sync: true });
  }

  /**
   * Renders a template to a string. `field` (the step's field, e.g. `text`) is named in the error.
   * @throws ActionError TEMPLATE_ERROR (permanent) on a syntax error, an unknown variable or filter.
   */
  render(template: string, scope: Scope, field?: string): string {
    const value = this.evaluate(template, scope, false, field);
    if (typeof value === 'string') return value;
    if (value === undefined || value === null) return '';
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }

  /**
   * Evaluates a template to a value: a single output tag (`{{ steps.fetch.body }}`) yields
   * its value with its type; any other template yields the rendered string.
   * With `lenient`, an unknown variable yields undefined instead of an error. `field` (the
   * step's field, e.g. `body.value.id`) is named in the error.
   * @throws ActionError TEMPLATE_ERROR (permanent).
   */
  evaluate(template: string, scope: Scope, lenient = false, field?: string): unknown {
    let compiled: Compiled;
    try {
      compiled = this.compile(template);
    } catch (error) {
      this.fail(template, error, field);
    }
    if (compiled.kind === 'literal') return compiled.text;
    const observer = scope[SECRET_READS];
    const read: string[] = [];
    const seen = observer && scope.secrets ? { ...scope, secrets: watchSecrets(scope.secrets, read) } : scope;
    try {
      const value =
        compiled.kind === 'value'
          ? toValueSync(compiled.value.value(this.context(seen), lenient))
          : this.liquid.renderSync(compiled.templates, seen);
      if (read.length > 0) observer!(template, value, read);
      return value;
    } catch (error) {
      if (lenient && (error as Error).name === 'UndefinedVariableError') return undefined;
      this.fail(template, error, field);
    }
  }

  /**
   * Renders every string inside a JSON value (objects and arrays are walked; numbers,
   * booleans and null are kept). Strings that are a single output tag keep their value's type.
   * `field` (the step's field, e.g. `values`) is named in the error, with the path inside it.
   * @throws ActionError TEMPLATE_ERROR (permanent).
   */
  renderValue(value: unknown, scope: Scope, field?: string): unknown {
    if (typeof value === 'string') return this.evaluate(value, scope, false, field);
    if (Array.isArray(value)) return value.map((v, i) => this.renderValue(v, scope, field === undefined ? undefined : `${field}[${i}]`));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.renderValue(v, scope, field === undefined ? undefined : `${field}.${k}`);
      return out;
    }
    return value;
  }
}
