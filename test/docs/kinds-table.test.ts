import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_REGISTRY } from '../../engine/src';

const docs = fs.readFileSync(path.resolve(__dirname, '../../docs/automations.md'), 'utf8');

/** The rows of the first table under `heading`: the kind types of its first column, and the whole row. */
function table(heading: string): Map<string, string> {
  const start = docs.indexOf(`\n${heading}\n`);
  expect(start).toBeGreaterThan(-1);
  const lines = docs.slice(start).split('\n').slice(2);
  const first = lines.findIndex((l) => l.startsWith('|'));
  const rows = new Map<string, string>();
  for (const line of lines.slice(first)) {
    if (!line.startsWith('|')) break;
    const cell = line.split('|')[1]!;
    for (const [, type] of cell.matchAll(/`([a-z][A-Za-z.]*)`/g)) if (type !== 'type') rows.set(type!, line);
  }
  return rows;
}

/** docs/automations.md's tables of kinds against the engine's one list of kinds (`engine/src/kinds`). */
describe('docs: the tables of kinds match the declared kinds', () => {
  test('the Triggers table has one row per trigger kind, and no other', () => {
    expect([...table('#### Triggers').keys()].sort()).toEqual(
      DEFAULT_REGISTRY.triggers()
        .map((k) => k.type)
        .sort(),
    );
  });

  test('the Actions table has one row per action kind, and no other, naming its required fields', () => {
    const rows = table('#### Actions');
    expect([...rows.keys()].sort()).toEqual(
      DEFAULT_REGISTRY.actions()
        .map((k) => k.type)
        .sort(),
    );
    for (const kind of DEFAULT_REGISTRY.actions()) {
      const fields = rows.get(kind.type)!.split('|')[2]!;
      for (const name of (kind.parameters.required as string[] | undefined) ?? [])
        expect([kind.type, fields]).toEqual([kind.type, expect.stringMatching(new RegExp(`\\b${name}\\b`))]);
    }
  });
});
