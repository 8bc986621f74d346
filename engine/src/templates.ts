/**
 * Liquid templates (LiquidJS) over a run's variables: `trigger`, `steps.<id>`, `run`,
 * `automation` and `secrets` (README "Automations", "Variables").
 *
 * Strict where it protects, forgiving where a value is optional: a bare unknown variable or
 * property (`{{ trigger.nope }}`) and an unknown filter are errors, reported as a permanent step
 * error `TEMPLATE_ERROR` naming the variable, never rendered as empty; but a missing value may be
 * tested (`{% if x %}`, `{% unless x %}`, LiquidJS `lenientIf`) or given a fallback
 * (`{{ x | default: "none" }}`), which is how optional webhook fields and an approval's optional
 * comment are written.
 * Objects and arrays output as JSON. A template that is exactly one output tag keeps its
 * value's type when used as a value (JSON bodies, field values, conditions).
 */
import { Context, Liquid, toValueSync, Value, type Template } from 'liquidjs';
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
}

type Compiled = { kind: 'literal'; text: string } | { kind: 'value'; value: Value } | { kind: 'text'; templates: Template[] };

const WHOLE = /^\{\{-?((?:(?!\}\}|\{\{)[\s\S])*?)-?\}\}$/;

/** Options of {@link Templates}. */
export interface TemplateOptions {
  /** Compiled templates kept in memory (default 2000). */
  cacheSize?: number;
  /** Longest time one render may take, in ms (default 1000). */
  renderLimitMs?: number;
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
  }

  private compile(template: string): Compiled {
    let compiled = this.cache.get(template);
    if (compiled) return compiled;
    if (!template.includes('{')) compiled = { kind: 'literal', text: template };
    else {
      const whole = WHOLE.exec(template);
      compiled = whole ? { kind: 'value', value: new Value(whole[1]!.trim(), this.liquid) } : { kind: 'text', templates: this.liquid.parse(template) };
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

  private fail(template: string, error: unknown): never {
    if (error instanceof ActionError) throw error;
    const message = (error as Error).message ?? String(error);
    throw new ActionError('TEMPLATE_ERROR', `template '${template.length > 200 ? template.slice(0, 200) + '…' : template}': ${message}`, false);
  }

  private context(scope: Scope): Context {
    return new Context(scope as unknown as object, this.liquid.options, { sync: true });
  }

  /**
   * Renders a template to a string.
   * @throws ActionError TEMPLATE_ERROR (permanent) on a syntax error, an unknown variable or filter.
   */
  render(template: string, scope: Scope): string {
    const value = this.evaluate(template, scope);
    if (typeof value === 'string') return value;
    if (value === undefined || value === null) return '';
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }

  /**
   * Evaluates a template to a value: a single output tag (`{{ steps.fetch.body }}`) yields
   * its value with its type; any other template yields the rendered string.
   * With `lenient`, an unknown variable yields undefined instead of an error.
   * @throws ActionError TEMPLATE_ERROR (permanent).
   */
  evaluate(template: string, scope: Scope, lenient = false): unknown {
    let compiled: Compiled;
    try {
      compiled = this.compile(template);
    } catch (error) {
      this.fail(template, error);
    }
    if (compiled.kind === 'literal') return compiled.text;
    try {
      if (compiled.kind === 'value') return toValueSync(compiled.value.value(this.context(scope), lenient));
      return this.liquid.renderSync(compiled.templates, scope);
    } catch (error) {
      if (lenient && (error as Error).name === 'UndefinedVariableError') return undefined;
      this.fail(template, error);
    }
  }

  /**
   * Renders every string inside a JSON value (objects and arrays are walked; numbers,
   * booleans and null are kept). Strings that are a single output tag keep their value's type.
   * @throws ActionError TEMPLATE_ERROR (permanent).
   */
  renderValue(value: unknown, scope: Scope): unknown {
    if (typeof value === 'string') return this.evaluate(value, scope);
    if (Array.isArray(value)) return value.map((v) => this.renderValue(v, scope));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.renderValue(v, scope);
      return out;
    }
    return value;
  }
}
