import type { KindInfo } from './kinds';

function short(text: string, max = 48): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * A one-line summary of a step's or trigger's configuration for its card: its first few filled-in
 * values in the kind's parameter order (`POST · https://erp.example.com/orders`), else the kind's
 * own summary.
 */
export function summarize(kind: KindInfo | undefined, value: Record<string, unknown>): string {
  if (!kind) return '';
  const parts: string[] = [];
  for (const [name, schema] of Object.entries(kind.parameters.properties ?? {})) {
    if (parts.length >= 3) break;
    // Ids (pickers) mean nothing to a reader; steps show as cards.
    if (schema['x-editor'] === 'steps' || schema['x-picker'] || kind.nested?.includes(name)) continue;
    const v = value[name];
    if (typeof v === 'string' && v.trim() !== '') parts.push(short(v.replace(/\s+/g, ' ')));
    else if (typeof v === 'number') parts.push(`${schema.title ?? name}: ${v}`);
    else if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string')) parts.push(short(v.join(', ')));
  }
  return parts.length > 0 ? parts.join(' · ') : kind.summary;
}
