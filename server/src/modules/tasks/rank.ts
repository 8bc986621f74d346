/**
 * Fractional ordering keys for siblings, so inserting or moving a task never renumbers its
 * siblings. Keys are strings over the 62 characters 0-9A-Za-z compared by byte order, never
 * end in '0', and there is always a key strictly between any two distinct keys.
 *
 * Appends use fixed-width keys stepped by 62², so a project built by appending keeps keys of
 * six characters for millions of tasks; inserts between neighbours take the midpoint and grow
 * by about one character per six halvings.
 */

export const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE = DIGITS.length;
const WIDTH = 6;
const STEP = BASE * BASE;
const FIRST = 'U0000V';

function digit(char: string | undefined): number {
  return char === undefined ? 0 : DIGITS.indexOf(char);
}

/** The midpoint of `a` < `b` (`b` null: no upper bound); both without trailing '0'. */
function midpoint(a: string, b: string | null): string {
  if (b !== null) {
    let n = 0;
    while ((a[n] ?? '0') === b[n]) n++;
    if (n > 0) return b.slice(0, n) + midpoint(a.slice(n), b.slice(n));
  }
  const low = digit(a[0]);
  const high = b === null ? BASE : digit(b[0]);
  if (high - low > 1) return DIGITS[Math.round((low + high) / 2)]!;
  if (b !== null && b.length > 1) return b.slice(0, 1);
  return DIGITS[low]! + midpoint(a.slice(1), null);
}

/** `a`'s first {@link WIDTH} digits plus one step, or undefined when that overflows. */
function stepAfter(a: string): string | undefined {
  const head = a.slice(0, WIDTH).padEnd(WIDTH, '0');
  let value = 0;
  for (const char of head) value = value * BASE + digit(char);
  value += STEP;
  if (value >= BASE ** WIDTH) return undefined;
  let out = '';
  for (let i = 0; i < WIDTH; i++) {
    out = DIGITS[value % BASE]! + out;
    value = Math.floor(value / BASE);
  }
  return out.endsWith('0') ? undefined : out;
}

/**
 * A key strictly between `before` and `after` (null = open end).
 * @throws Error when `before` >= `after` (a corrupt sibling list).
 */
export function keyBetween(before: string | null, after: string | null): string {
  if (before !== null && after !== null && before >= after) throw new Error(`rank keys out of order: ${before} >= ${after}`);
  if (before === null && after === null) return FIRST;
  if (after === null) return stepAfter(before!) ?? midpoint(before!, null);
  return midpoint(before ?? '', after);
}
