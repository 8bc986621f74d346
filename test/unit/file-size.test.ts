import fs from 'node:fs';
import path from 'node:path';

/**
 * Keeps modules small (house rule, issue 23): no hand-written source file in server/src,
 * engine/src or web/src is over {@link MAX_LINES} lines as Prettier formats it. Generated files
 * (the web client's API types) are left out.
 */
const MAX_LINES = 450;
const ROOT = path.join(__dirname, '../..');
const FOLDERS = ['server/src', 'engine/src', 'web/src'];
const GENERATED = new Set(['web/src/api/schema.d.ts']);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(relative);
    return /\.(ts|tsx|css)$/.test(entry.name) && !GENERATED.has(relative) ? [relative] : [];
  });
}

test(`no hand-written source file is over ${MAX_LINES} lines`, () => {
  const files = FOLDERS.flatMap(sourceFiles);
  expect(files.length).toBeGreaterThan(300);
  const lines = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n').length;
  expect(files.filter((file) => lines(file) > MAX_LINES).map((file) => `${file}: ${lines(file)} lines`)).toEqual([]);
});
