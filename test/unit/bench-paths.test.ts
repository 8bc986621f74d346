import fs from 'node:fs';
import path from 'node:path';

/**
 * The benches load the compiled server (`server/dist/<file>.js`) by path; a file moved in the
 * server must move in the benches too, or `npm run bench` breaks while every other suite passes.
 */
test('every server module a bench loads exists in server/src', () => {
  const root = path.join(__dirname, '../..');
  const benchDir = path.join(root, 'bench');
  const loaded: string[] = [];
  for (const file of fs.readdirSync(benchDir).filter((f) => f.endsWith('.js'))) {
    const text = fs.readFileSync(path.join(benchDir, file), 'utf8');
    for (const match of text.matchAll(/dist\('([^']+)\.js'\)|server\/dist\/([\w/.-]+)\.js/g)) loaded.push(match[1] ?? match[2]!);
  }
  expect(loaded.length).toBeGreaterThan(5);
  const missing = loaded.filter((p) => !fs.existsSync(path.join(root, 'server/src', `${p}.ts`)));
  expect(missing).toEqual([]);
});
