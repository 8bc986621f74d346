import { useMemo } from 'react';

/** Background colours for initials avatars: readable with white text in both themes. */
const PALETTE = ['#4f46e5', '#0e7490', '#15803d', '#b45309', '#be123c', '#7c3aed', '#0369a1', '#a21caf'];

/** Whether this browser has a font that draws `emoji` (false when it would show an empty box). */
function emojiRenders(emoji: string): boolean {
  if (typeof document === 'undefined') return true;
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 16;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return true;
  context.textBaseline = 'top';
  context.font = '14px sans-serif';
  context.fillText(emoji, 0, 0);
  const pixels = context.getImageData(0, 0, 16, 16).data;
  // An emoji glyph is coloured; a missing-glyph box (tofu) or nothing is drawn in the fill colour only.
  for (let i = 0; i < pixels.length; i += 4) {
    const [r, g, b, a] = [pixels[i]!, pixels[i + 1]!, pixels[i + 2]!, pixels[i + 3]!];
    if (a > 0 && (Math.abs(r - g) > 10 || Math.abs(g - b) > 10)) return true;
  }
  return false;
}

/** Up to two initials of `name` ("Release notes bot" → "RN"). */
export function initials(name: string): string {
  const words = name
    .trim()
    .split(/[\s_\-.@]+/u)
    .filter(Boolean);
  const letters = words.slice(0, 2).map((w) => Array.from(w)[0]!.toUpperCase());
  return letters.join('') || '?';
}

/** A stable palette index for `name`. */
function colourOf(name: string): string {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.codePointAt(0)!) >>> 0;
  return PALETTE[hash % PALETTE.length]!;
}

/**
 * A round avatar: the `emoji` when this browser can draw it, otherwise the initials of `name` on a
 * colour derived from the name (so a missing emoji font never shows an empty box).
 */
export function Avatar({ name, emoji, size = 'md' }: { name: string; emoji?: string | null; size?: 'md' | 'lg' }) {
  const drawable = useMemo(() => (emoji ? emojiRenders(emoji) : false), [emoji]);
  const className = size === 'lg' ? 'avatar avatar-lg' : 'avatar';
  if (emoji && drawable) {
    return (
      <span className={className} role="img" aria-label={name}>
        {emoji}
      </span>
    );
  }
  return (
    <span className={`${className} avatar-initials`} role="img" aria-label={name} style={{ background: colourOf(name) }}>
      {initials(name)}
    </span>
  );
}
