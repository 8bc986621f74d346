import fs from 'node:fs';
import path from 'node:path';
import { describePackage, readManifest, SHIPPED_MANIFEST, shippedPackages } from '../../server/src/modules/pieces/catalogue';
import { client, startServer, type TestServer } from '../helpers/server';

/**
 * The shipped pieces (docs/integrations.md "What ships"): every `@activepieces/piece-*`
 * dependency of the server loads and is described exactly as `server/pieces/shipped.json` says
 * (run `node server/dist/cli.js pieces manifest` after changing the set), and the catalogue lists
 * each of their actions as a kind with a parameter schema the builder renders; the docs' table
 * lists exactly the manifest's pieces.
 */
describe('pieces: the shipped set', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  test('every shipped piece loads and matches the shipped manifest', () => {
    const names = shippedPackages();
    expect(names.length).toBeGreaterThanOrEqual(47);
    const manifest = readManifest(SHIPPED_MANIFEST);
    expect(manifest.map((p) => p.packageName).sort()).toEqual(names);
    for (const name of names) {
      const described = describePackage(name, [path.dirname(SHIPPED_MANIFEST)]);
      expect(described).toEqual(manifest.find((p) => p.packageName === name));
    }
  }, 120000);

  test('the catalogue lists every action of every shipped piece, with its parameters', async () => {
    const { body } = await client(server, server.token).get('/api/v1/automations/kinds');
    const kinds = new Map<string, any>(body.actions.map((k: any) => [k.type, k]));
    const manifest = readManifest(SHIPPED_MANIFEST);
    expect(manifest.filter((p) => p.actions.length > 0).length).toBeGreaterThanOrEqual(40);
    for (const piece of manifest) {
      for (const action of piece.actions) {
        const kind = kinds.get(`${piece.name}.${action.name}`);
        expect([piece.name, action.name, kind?.piece?.packageName]).toEqual([piece.name, action.name, piece.packageName]);
        expect(kind.parameters.type).toBe('object');
        const props = kind.parameters.properties.props;
        expect(props.type).toBe('object');
        // Every property but markdown help and browser-side code is a field, with a title.
        const offered = Object.entries(action.props).filter(([, p]) => p.type !== 'MARKDOWN' && p.type !== 'CUSTOM');
        expect(Object.keys(props.properties).sort()).toEqual(offered.map(([n]) => n).sort());
        for (const field of Object.values<any>(props.properties)) expect(typeof field.title).toBe('string');
      }
    }
  });

  test('docs/integrations.md "What ships" lists the manifest: one row a piece, and the count', () => {
    const docs = fs.readFileSync(path.join(__dirname, '../../docs/integrations.md'), 'utf8');
    const section = docs.slice(docs.indexOf('## What ships'), docs.indexOf('## Adding a piece'));
    const rows = section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| piece |'));
    const manifest = readManifest(SHIPPED_MANIFEST);
    const expected = manifest.map(
      (p) =>
        `| ${p.displayName} | \`${p.name}\` | ${p.name}@${p.version} | ${p.actions.length} | ${p.triggers.length} | ${p.auth.map((a) => a.type).join(', ') || 'own properties'} |`,
    );
    expect(rows).toEqual(expected);
    expect(section).toContain(`depends on ${manifest.length} pinned pieces`);
  });
});
