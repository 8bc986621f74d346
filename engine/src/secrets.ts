/**
 * Workspace secrets in runs (docs/automations.md "Secrets"): templates read them as
 * `{{ secrets.NAME }}`, and whatever a run records — step inputs, outputs, errors, the run's
 * error — shows `[secret NAME]` wherever a secret's value would appear.
 */

/** Shortest value masked inside longer text, in characters; the service refuses shorter secrets. */
export const SECRET_MIN_LENGTH = 4;

/** Where a run reads its workspace's secrets: name → value, read again before every step (rotation takes effect at the next step). */
export type SecretSource = (workspaceId: string) => Promise<Record<string, string>> | Record<string, string>;

/** The placeholder recorded instead of a secret's value. */
export function secretPlaceholder(name: string): string {
  return `[secret ${name}]`;
}

/**
 * The secret values one run has seen (old values after a rotation included) and their masking.
 * One instance per run execution.
 */
export class SecretMask {
  /** value → name, longest values first when applied. */
  private readonly names = new Map<string, string>();
  private ordered: [string, string][] = [];

  /** Remembers the values of `secrets` (name → value). */
  add(secrets: Record<string, string>): void {
    let changed = false;
    for (const [name, value] of Object.entries(secrets)) {
      if (value.length < SECRET_MIN_LENGTH || this.names.get(value) === name) continue;
      this.names.set(value, name);
      changed = true;
    }
    if (changed) this.ordered = [...this.names.entries()].sort((a, b) => b[0].length - a[0].length);
  }

  /** A copy of a JSON value with every secret value inside its strings replaced by its placeholder. */
  apply<T>(value: T): T {
    if (this.ordered.length === 0) return value;
    return this.walk(value) as T;
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') {
      let text = value;
      for (const [secret, name] of this.ordered) if (text.includes(secret)) text = text.split(secret).join(secretPlaceholder(name));
      return text;
    }
    if (Array.isArray(value)) return value.map((v) => this.walk(v));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.walk(v);
      return out;
    }
    return value;
  }
}
