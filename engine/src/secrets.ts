/**
 * Workspace secrets in runs (docs/automations.md "Secrets"): templates read them as
 * `{{ secrets.NAME }}`, and whatever a run records — step inputs, outputs, errors, the run's
 * error, a child run's trigger variables, an agent's conversation — shows `[secret NAME]`
 * wherever a secret's value would appear, and a value computed from a secret (`| upcase`,
 * `| base64_encode`, `| slice`…) as its template with `[derived from secret NAME]`.
 *
 * The mask works from the source: the templates report every evaluation that read a secret
 * ({@link SecretReads}), so a derived value is known as such when it is made, not guessed at by
 * matching text afterwards. What it then hides is that value in the encodings a request or an
 * echoing server gives it (URL, form, base64, JSON string escapes).
 */

/** Shortest value masked inside longer text, in characters; the service refuses shorter secrets. */
export const SECRET_MIN_LENGTH = 4;

/** Where a run reads its workspace's secrets: name → value, read again before every step (rotation takes effect at the next step). */
export type SecretSource = (workspaceId: string) => Promise<Record<string, string>> | Record<string, string>;

/** The placeholder recorded instead of a secret's value. */
export function secretPlaceholder(name: string): string {
  return `[secret ${name}]`;
}

/** The placeholder recorded for a value computed from the secrets `names`. */
export function derivedPlaceholder(names: readonly string[]): string {
  return `[derived from secret ${names.join(', ')}]`;
}

/** Output and logic tags of a Liquid template. */
const TAG = /\{\{-?[\s\S]*?-?\}\}|\{%-?[\s\S]*?-?%\}/g;
/** A tag that outputs one secret unchanged: `{{ secrets.NAME }}`, `{{ secrets["NAME"] }}`. */
const PLAIN_SECRET = /^\{\{-?\s*secrets\s*(?:\.\s*([A-Za-z_][\w]*)|\[\s*(["'])([^"']+)\2\s*\])\s*-?\}\}$/;

/**
 * How a template that read `names` is recorded: its own text, with every tag that mentions
 * `secrets` replaced by `[secret NAME]` (a plain reference) or `[derived from secret NAME]`.
 * The text holds no secret byte: it comes from the definition, never from a rendering.
 * Returns undefined when every secret tag is a plain reference, whose value is masked where it
 * appears in the rendered text (so the rest of that text, `trigger` values and all, is kept).
 */
export function describeTemplate(template: string, names: readonly string[]): string | undefined {
  let derived = false;
  const text = template.replace(TAG, (tag) => {
    const plain = PLAIN_SECRET.exec(tag);
    if (plain) return secretPlaceholder(plain[1] ?? plain[3]!);
    if (!/\bsecrets\b/.test(tag)) return tag;
    derived = true;
    const named = names.filter((n) => tag.includes(n));
    return derivedPlaceholder(named.length > 0 ? named : names);
  });
  // A template that read a secret without naming `secrets` (through a variable it assigned) is derived as a whole.
  if (!derived && !/\bsecrets\b/.test(template)) return derivedPlaceholder(names);
  return derived ? text : undefined;
}

/** The forms a value takes in a request or a response: raw, URL- and form-encoded, base64, JSON-escaped. */
function encodings(value: string): string[] {
  const forms = new Set<string>([
    value,
    encodeURIComponent(value),
    new URLSearchParams({ v: value }).toString().slice(2),
    JSON.stringify(value).slice(1, -1),
  ]);
  const base64 = Buffer.from(value, 'utf8').toString('base64');
  forms.add(base64);
  forms.add(base64.replace(/=+$/, ''));
  forms.add(Buffer.from(value, 'utf8').toString('base64url'));
  // The part of the base64 that stays the same when more text follows the value (`value + ":x"`).
  const stable = base64.slice(0, Math.floor(Buffer.byteLength(value) / 3) * 4);
  if (stable.length >= 8) forms.add(stable);
  return [...forms];
}

/**
 * The secret values one run has seen (old values after a rotation included), the values it
 * derived from them, and their masking. One instance per run execution.
 */
export class SecretMask {
  /** text → what is recorded instead; applied inside longer strings, longest first. */
  private readonly inside = new Map<string, string>();
  private ordered: [string, string][] = [];
  /** Whole values (short derived strings, JSON of derived arrays and objects) → what is recorded instead. */
  private readonly whole = new Map<string, string>();
  private structured = false;

  /** Remembers the values of `secrets` (name → value). */
  add(secrets: Record<string, string>): void {
    let changed = false;
    for (const [name, value] of Object.entries(secrets)) {
      if (value.length < SECRET_MIN_LENGTH || this.inside.get(value) === secretPlaceholder(name)) continue;
      for (const form of encodings(value)) if (form.length >= SECRET_MIN_LENGTH) this.inside.set(form, secretPlaceholder(name));
      changed = true;
    }
    if (changed) this.reorder();
  }

  /**
   * The observer for {@link Scope}'s secret reads: remembers a value computed from secrets, to be
   * recorded as {@link describeTemplate} of its template. Values that are a secret as it is, or
   * a text with plain secret references, are already masked by {@link add}.
   */
  readonly observe = (template: string, value: unknown, names: string[]): void => {
    const shown = describeTemplate(template, names);
    if (shown === undefined || value === undefined || value === null) return;
    if (typeof value !== 'string') {
      const json = JSON.stringify(value);
      if (json === undefined) return;
      this.whole.set(json, shown);
      this.structured ||= typeof value === 'object';
      this.remember(json, shown);
      if (typeof value !== 'object') this.remember(String(value), shown);
      return;
    }
    this.whole.set(value, shown);
    this.remember(value, shown);
    // The words of `Basic <credentials>`: an echoing server may return the credentials alone.
    for (const part of value.split(/\s+/)) if (part.length >= 8 && part !== value) this.remember(part, shown);
  };

  private remember(value: string, shown: string): void {
    let changed = false;
    for (const form of encodings(value)) {
      if (form.length < SECRET_MIN_LENGTH || this.inside.has(form)) continue;
      this.inside.set(form, shown);
      changed = true;
    }
    if (changed) this.reorder();
  }

  private reorder(): void {
    this.ordered = [...this.inside.entries()].sort((a, b) => b[0].length - a[0].length);
  }

  /** A copy of a JSON value with every secret value, and every value derived from one, replaced by its placeholder. */
  apply<T>(value: T): T {
    if (this.ordered.length === 0 && this.whole.size === 0) return value;
    return this.walk(value) as T;
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') {
      const exact = this.whole.get(value);
      if (exact !== undefined) return exact;
      let text = value;
      for (const [secret, shown] of this.ordered) if (text.includes(secret)) text = text.split(secret).join(shown);
      return text;
    }
    if (value && typeof value === 'object') {
      if (this.structured) {
        const exact = this.whole.get(JSON.stringify(value));
        if (exact !== undefined) return exact;
      }
      if (Array.isArray(value)) return value.map((v) => this.walk(v));
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.walk(v);
      return out;
    }
    return value;
  }
}
