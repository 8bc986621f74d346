/** The `matches` operator's patterns, compiled with RE2. */
import { RE2JS } from 're2js';

/** A compiled `matches` pattern. */
export interface Pattern {
  /** True when the pattern matches somewhere in `text`. */
  test(text: string): boolean;
}

/**
 * The pattern of a `matches` operand: `/source/flags` (flags `i`, `m`, `s`; `g`, `u`, `y`, `d`
 * are accepted and ignored) or a bare source. Compiled with RE2 (re2js), which matches in time
 * linear in the text, so a pattern cannot stall the server however the text is crafted (texts
 * often come from inbound webhook bodies). RE2 has no backreferences or lookarounds.
 * @throws Error when the pattern is invalid or uses what RE2 does not support.
 */
export function regexOf(pattern: string): Pattern {
  const literal = /^\/(.*)\/([dgimsuy]*)$/s.exec(pattern);
  const source = literal ? literal[1]! : pattern;
  const flags = literal ? literal[2]! : '';
  const compiled = RE2JS.compile(
    source,
    (flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0) |
      (flags.includes('m') ? RE2JS.MULTILINE : 0) |
      (flags.includes('s') ? RE2JS.DOTALL : 0),
  );
  return { test: (text) => compiled.matcher(text).find() };
}
