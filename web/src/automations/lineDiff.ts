/** One line of a line diff: kept in both texts, only in the old one, or only in the new one. */
export interface DiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** Past this many differing lines on each side the diff shows both blocks whole (the table would be too large). */
const MAX_LCS_LINES = 3000;

/**
 * The line diff of `before` and `after` (a longest common subsequence after trimming the common
 * head and tail), in order: removed lines come before the added lines that replace them.
 * Quadratic in the lines that differ, so the middle is capped at {@link MAX_LCS_LINES} per side.
 */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  const out: DiffLine[] = a.slice(0, head).map((text) => ({ kind: 'same', text }));
  if (x.length > MAX_LCS_LINES || y.length > MAX_LCS_LINES) {
    out.push(...x.map((text) => ({ kind: 'removed' as const, text })), ...y.map((text) => ({ kind: 'added' as const, text })));
  } else {
    // lcs[i][j]: the longest common subsequence of x[i..] and y[j..], one row of y.length + 1 per i.
    const width = y.length + 1;
    const lcs = new Uint32Array((x.length + 1) * width);
    for (let i = x.length - 1; i >= 0; i--)
      for (let j = y.length - 1; j >= 0; j--)
        lcs[i * width + j] =
          x[i] === y[j] ? lcs[(i + 1) * width + j + 1]! + 1 : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    let i = 0;
    let j = 0;
    while (i < x.length || j < y.length) {
      if (i < x.length && j < y.length && x[i] === y[j]) {
        out.push({ kind: 'same', text: x[i]! });
        i++;
        j++;
      } else if (j >= y.length || (i < x.length && lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!))
        out.push({ kind: 'removed', text: x[i++]! });
      else out.push({ kind: 'added', text: y[j++]! });
    }
  }
  out.push(...a.slice(a.length - tail).map((text) => ({ kind: 'same' as const, text })));
  return out;
}

/** A run of unchanged lines left out of a diff's display. */
export interface DiffGap {
  kind: 'gap';
  /** How many lines were left out. */
  count: number;
}

/** `lines` with unchanged runs longer than `2 × context` shortened to `context` lines around each change. */
export function withContext(lines: readonly DiffLine[], context = 3): (DiffLine | DiffGap)[] {
  const near = lines.map(() => false);
  lines.forEach((l, i) => {
    if (l.kind === 'same') return;
    for (let k = Math.max(0, i - context); k <= Math.min(lines.length - 1, i + context); k++) near[k] = true;
  });
  const out: (DiffLine | DiffGap)[] = [];
  lines.forEach((l, i) => {
    if (near[i]) out.push(l);
    else {
      const last = out.at(-1);
      if (last?.kind === 'gap') last.count++;
      else out.push({ kind: 'gap', count: 1 });
    }
  });
  return out;
}
