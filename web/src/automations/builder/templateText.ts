/** One piece of a template field's text: plain text, or a `{{ … }}` output tag. */
export interface TemplatePiece {
  text: string;
  tag: boolean;
}

/**
 * Splits a Liquid template into plain text and `{{ … }}` output tags, for highlighting the tags in
 * the field (docs "Web app", "Data picker"). An unclosed `{{` is plain text.
 */
export function templatePieces(value: string): TemplatePiece[] {
  const pieces: TemplatePiece[] = [];
  let at = 0;
  for (const match of value.matchAll(/\{\{[\s\S]*?\}\}/g)) {
    if (match.index > at) pieces.push({ text: value.slice(at, match.index), tag: false });
    pieces.push({ text: match[0], tag: true });
    at = match.index + match[0].length;
  }
  if (at < value.length) pieces.push({ text: value.slice(at), tag: false });
  return pieces;
}

/** A Liquid filter the data picker offers after a variable (LiquidJS built-ins). */
export interface TemplateFilter {
  /** What is written after the variable, without the leading `| `; empty: none. */
  filter: string;
  label: string;
}

/** The filters the data picker offers: a fallback for a missing value first, then formats. */
export const TEMPLATE_FILTERS: readonly TemplateFilter[] = [
  { filter: '', label: 'As it is' },
  { filter: 'default: ""', label: 'Empty text when missing (default)' },
  { filter: 'json', label: 'As JSON (json)' },
  { filter: 'upcase', label: 'UPPER CASE (upcase)' },
  { filter: 'downcase', label: 'lower case (downcase)' },
  { filter: 'strip', label: 'Without surrounding spaces (strip)' },
  { filter: 'truncate: 100', label: 'First 100 characters (truncate)' },
  { filter: 'size', label: 'Length or count (size)' },
  { filter: 'date: "%Y-%m-%d"', label: 'Date as 2026-01-31 (date)' },
];

/** The output tag for `path` with `filter` (see {@link TEMPLATE_FILTERS}): `{{ path | filter }}`. */
export function outputTag(path: string, filter: string): string {
  return filter ? `{{ ${path} | ${filter} }}` : `{{ ${path} }}`;
}
