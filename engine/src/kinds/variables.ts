/**
 * The save check of template variables (docs "Checked when saved"): every `{{ }}` / `{% %}`
 * reference of every template field must name something its step can see when it runs — a
 * variable of the trigger, a step that runs before it, `run`, `automation`, a workspace secret,
 * `loop` inside loops and `error` inside error paths. References are found with LiquidJS's own
 * static analysis, so `assign`ed names, `for` variables and `forloop` are told apart from the
 * run's variables.
 */
import { Liquid } from 'liquidjs';
import type { Action, AutomationDefinition } from '../definition/types';
import type { DefinitionProblem } from '../definition/validate';
import { triggerVariables } from './trigger-variables';

/** The fields of `run` (docs "Variables"). */
export const RUN_VARIABLES = ['id', 'createdAt', 'startedAt', 'depth', 'test', 'triggerType', 'resumeUrl'] as const;
/** The fields of `automation`. */
export const AUTOMATION_VARIABLES = ['id', 'name', 'version', 'workspaceId'] as const;
/** The fields of `loop`, inside a loop's steps. */
export const LOOP_VARIABLES = ['item', 'index', 'count'] as const;
/** The fields of `error`, inside an error path (`onError: {then}`). */
export const ERROR_VARIABLES = ['code', 'message', 'transient', 'status', 'details', 'stepId'] as const;
/** Properties Liquid gives every object and array (`{{ trigger.size }}`). */
const LIQUID_PROPERTIES = ['size', 'first', 'last'];

/** Options of {@link variableProblems}. */
export interface VariableCheckOptions {
  /** The workspace's secret names: when given, `secrets.NAME` must name one (reason `unknown_secret`). */
  secrets?: readonly string[];
}

/** What the steps of one list can see. */
interface Reach {
  /** Ids of the steps that run before (earlier siblings, enclosing steps and their earlier siblings). */
  steps: Set<string>;
  loop: boolean;
  error: boolean;
}

/** Keys of an action that are not templates, or hold nested steps walked on their own. */
const NOT_TEMPLATES = new Set(['id', 'type', 'name', 'retry', 'then', 'else', 'approvers', 'onError', 'disabled', 'timeoutMs']);

function pathOf(segments: (string | number)[]): string {
  return segments.reduce<string>((acc, s) => (typeof s === 'number' ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '');
}

/** Edit distance counting a swap of two neighbours as one edit (optimal string alignment), ignoring case. */
function distance(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) =>
    Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[x.length]![y.length]!;
}

/**
 * The known name closest to `name`, when one is close enough to be a likely typo (at most one
 * edit per three characters, at least one; a swap of neighbours is one edit).
 */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = distance(name, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(name.length / 3)) ? best : undefined;
}

/** "; did you mean X?" for the closest of `known`, else a short list of them. */
function hint(name: string, known: string[], spell: (n: string) => string, listed: (n: string) => string = spell): string {
  const close = closestName(name, known);
  if (close !== undefined) return `; did you mean ${spell(close)}?`;
  if (known.length === 0) return '';
  const shown = known.slice(0, 8).map(listed).join(', ');
  return `; known: ${shown}${known.length > 8 ? ', …' : ''}`;
}

/** Every step id of a list, nested lists included. */
function allIds(actions: Action[] | undefined, into: Set<string>): Set<string> {
  for (const a of actions ?? []) {
    into.add(a.id);
    if (a.type === 'branch' || a.type === 'approval') {
      allIds(a.then, into);
      allIds(a.else, into);
    }
    if (a.type === 'loop') allIds(a.actions, into);
    if (a.type === 'parallel') for (const list of Object.values(a.branches)) allIds(list, into);
    if (a.onError !== undefined && typeof a.onError === 'object') allIds(a.onError.then, into);
  }
  return into;
}

/** The run variables a template refers to, each as its segments (root first); [] when it does not parse. */
function referencesOf(liquid: Liquid, template: string): (string | number | unknown[])[][] {
  if (!template.includes('{')) return [];
  try {
    const { globals } = liquid.analyzeSync(liquid.parse(template));
    return Object.values(globals).flatMap((found) => found.map((v) => v.toArray()));
  } catch {
    return []; // a syntax error is reported by validateDefinition
  }
}

/** Checks the templates of one definition; see {@link variableProblems}. */
class VariableCheck {
  readonly problems: DefinitionProblem[] = [];
  private readonly liquid = new Liquid();
  private readonly trigger: { type: string; names: string[]; open: boolean };
  private readonly everyStep: Set<string>;

  constructor(
    private readonly definition: AutomationDefinition,
    private readonly options: VariableCheckOptions,
  ) {
    const vars = triggerVariables(definition.trigger);
    this.trigger = { type: definition.trigger.type, names: [...vars.names], open: vars.open };
    this.everyStep = allIds(definition.actions, new Set());
  }

  /** Walks a list in run order: each step sees what ran before it; nested lists see their step too. */
  list(actions: Action[] | undefined, path: (string | number)[], reach: Reach): void {
    (actions ?? []).forEach((a, i) => {
      const at = [...path, i];
      // A disabled step never runs (nor what it holds): its id stays known, its templates unchecked.
      if (a.disabled) {
        allIds([a], reach.steps);
        return;
      }
      for (const [key, value] of Object.entries(a)) {
        if (
          NOT_TEMPLATES.has(key) ||
          (a.type === 'loop' && key === 'actions') ||
          (a.type === 'parallel' && key === 'branches') ||
          (a.type === 'code' && key === 'code')
        )
          continue;
        this.value(value, [...at, key], reach);
      }
      // The step's output is there for what runs after it, its branches included (a loop's or a
      // parallel step's output only once its iterations or branches are done).
      if (a.type !== 'loop' && a.type !== 'parallel') reach.steps.add(a.id);
      const nested = (list: Action[] | undefined, key: string[], extra: Partial<Reach> = {}) => {
        const inner: Reach = { ...reach, ...extra, steps: new Set(reach.steps) };
        this.list(list, [...at, ...key], inner);
        return inner.steps;
      };
      const seen: Set<string>[] = [];
      if (a.type === 'branch' || a.type === 'approval') seen.push(nested(a.then, ['then']), nested(a.else, ['else']));
      // A loop's steps are seen only inside its iterations (its output holds them afterwards).
      if (a.type === 'loop') nested(a.actions, ['actions'], { loop: true });
      // Each parallel branch sees the steps before the parallel step and its own; later steps see them all.
      if (a.type === 'parallel') for (const [name, list] of Object.entries(a.branches)) seen.push(nested(list, ['branches', name]));
      reach.steps.add(a.id);
      if (a.onError !== undefined && typeof a.onError === 'object') {
        // The failed step's output (`{error}`) is there in its error path.
        const inner: Reach = { ...reach, error: true, steps: new Set(reach.steps) };
        this.list(a.onError.then, [...at, 'onError', 'then'], inner);
        seen.push(inner.steps);
      }
      for (const ids of seen) for (const id of ids) reach.steps.add(id);
    });
  }

  /** Checks every template of `value` (any JSON) as seen with `reach`. */
  templates(value: unknown, path: (string | number)[], reach: Reach): void {
    this.value(value, path, reach);
  }

  private value(value: unknown, path: (string | number)[], reach: Reach): void {
    if (typeof value === 'string') {
      for (const segments of referencesOf(this.liquid, value)) this.reference(segments, pathOf(path), reach);
    } else if (Array.isArray(value)) value.forEach((v, i) => this.value(v, [...path, i], reach));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) this.value(v, [...path, k], reach);
  }

  private fail(field: string, reason: string, message: string): void {
    if (!this.problems.some((p) => p.path === field)) this.problems.push({ path: field, reason, message: `${field}: ${message}` });
  }

  private reference(segments: (string | number | unknown[])[], field: string, reach: Reach): void {
    const [root, member] = segments as [string, unknown];
    const name = typeof member === 'string' || typeof member === 'number' ? String(member) : undefined;
    const roots = ['trigger', 'steps', 'run', 'automation', 'secrets', ...(reach.loop ? ['loop'] : []), ...(reach.error ? ['error'] : [])];
    const rest = segments
      .slice(1)
      .map((s) => (typeof s === 'string' ? `.${s}` : typeof s === 'number' ? `[${s}]` : '[…]'))
      .join('');
    if (!roots.includes(root)) {
      let why = `unknown variable '${root}'`;
      if (root === 'loop') why = `'loop' is only defined inside a loop's steps`;
      if (root === 'error') why = `'error' is only defined inside an error path (onError: {then})`;
      this.fail(
        field,
        'unknown_variable',
        `${why}${hint(
          root,
          roots,
          (r) => r + rest,
          (r) => r,
        )}`,
      );
      return;
    }
    // `{{ trigger }}`, `{{ steps[name] }}`: nothing to check statically.
    if (name === undefined || LIQUID_PROPERTIES.includes(name)) return;
    switch (root) {
      case 'steps':
        if (!reach.steps.has(name)) {
          const why = this.everyStep.has(name)
            ? `step '${name}' does not run before this one (a step reads only steps that ran before it: earlier ones, and inside a loop those of the same iteration)`
            : `no step has the id '${name}'`;
          this.fail(
            field,
            'unknown_variable',
            `unknown variable steps.${name}: ${why}${hint(name, [...reach.steps], (s) => `steps.${s}`)}`,
          );
        }
        return;
      case 'trigger':
        if (!this.trigger.open && !this.trigger.names.includes(name)) {
          const kind = this.trigger.type === 'form' ? 'form trigger has no field' : `${this.trigger.type} trigger has no variable`;
          this.fail(
            field,
            'unknown_variable',
            `unknown variable trigger.${name}: the ${kind} '${name}'${hint(name, this.trigger.names, (n) => `trigger.${n}`)}`,
          );
        }
        return;
      case 'secrets':
        if (this.options.secrets !== undefined && !this.options.secrets.includes(name)) {
          this.fail(
            field,
            'unknown_secret',
            `the workspace has no secret ${name}; set it under Settings → Secrets first${hint(name, [...this.options.secrets], (s) => `secrets.${s}`)}`,
          );
        }
        return;
      default: {
        const known: readonly string[] = {
          run: RUN_VARIABLES,
          automation: AUTOMATION_VARIABLES,
          loop: LOOP_VARIABLES,
          error: ERROR_VARIABLES,
        }[root]!;
        if (!known.includes(name))
          this.fail(field, 'unknown_variable', `unknown variable ${root}.${name}${hint(name, [...known], (n) => `${root}.${n}`)}`);
      }
    }
  }
}

/**
 * The template references of `definition` that name nothing its step can see when it runs, one
 * problem per field (reason `unknown_variable`, or `unknown_secret` with `options.secrets`), in
 * document order. Checked: the root (`trigger`, `steps`, `run`, `automation`, `secrets`, `loop`
 * inside loops, `error` inside error paths) and its first segment — a step id that runs before
 * (earlier siblings, enclosing steps and their earlier siblings; inside a loop, the iteration's
 * steps), a variable the trigger kind declares ({@link triggerVariables}; webhook and
 * `task.completed` variables are open), a field of `run`, `automation`, `loop` or `error`.
 * Outputs of steps have open shapes: only the step id is checked. Templates that do not parse
 * are left to {@link validateDefinition}. Never throws.
 */
export function variableProblems(definition: AutomationDefinition, options: VariableCheckOptions = {}): DefinitionProblem[] {
  const check = new VariableCheck(definition, options);
  // A trigger filter runs before any step: it sees the trigger's variables (and `automation`).
  const filter = (definition.trigger as { filter?: unknown }).filter;
  if (filter !== undefined) check.templates(filter, ['trigger', 'filter'], { steps: new Set(), loop: false, error: false });
  check.list(definition.actions, ['actions'], { steps: new Set(), loop: false, error: false });
  return check.problems;
}
