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
    expect(names.length).toBeGreaterThanOrEqual(74);
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

  test('the old OAuth2 builds (Gmail, Google Sheets, HubSpot…) are listed with the OAuth2 auth their actions named, without that field', async () => {
    const manifest = readManifest(SHIPPED_MANIFEST);
    const { body } = await client(server, server.token).get('/api/v1/automations/kinds');
    for (const [piece, action, scope] of [
      ['gmail', 'send_email', 'https://www.googleapis.com/auth/gmail.send'],
      ['google-sheets', 'insert_row', 'https://www.googleapis.com/auth/spreadsheets'],
      ['hubspot', undefined, undefined],
    ] as const) {
      const described = manifest.find((p) => p.name === piece)!;
      expect([piece, described.auth.map((a) => a.type)]).toEqual([piece, ['OAUTH2']]);
      if (scope) expect(described.auth[0]).toMatchObject({ scope: expect.arrayContaining([scope]) });
      expect(described.actions.length).toBeGreaterThan(0);
      for (const a of described.actions) {
        expect([piece, a.name, a.authProp]).toEqual([piece, a.name, 'authentication']);
        const kind = body.actions.find((k: any) => k.type === `${piece}.${a.name}`);
        expect(kind).toBeDefined();
        expect(Object.keys(kind.parameters.properties.props.properties)).not.toContain('authentication');
        expect(kind.parameters.required).toContain('connectionId');
      }
      if (action) expect(described.actions.map((a) => a.name)).toContain(action);
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
