import path from 'node:path';
import ts from 'typescript';

/**
 * Storage operations are generators (server/src/platform/db/query.ts): calling one does nothing
 * until it is run. A call whose operation is dropped (a statement `touchTask(q, id, now);` without
 * `yield*`) or handed where no operation is expected (a generic callback that returns it as a
 * value) compiles, and silently skips its statements. This check reads the server's sources with
 * the type checker and accepts a call that returns an operation only where the operation is run:
 * delegated to with `yield*`, or passed, returned or assigned where an operation is the expected type.
 */

const ROOT = path.join(__dirname, '..', '..');

/** True when `type` is a Generator (what `Query<T>` is). */
function isGenerator(type: ts.Type | undefined): boolean {
  if (!type) return false;
  if (type.isUnion()) return type.types.some(isGenerator);
  const name = type.getSymbol()?.getName() ?? type.aliasSymbol?.getName();
  return name === 'Generator' || name === 'Query';
}

/**
 * True when `node` is what a function without a declared return type returns (its arrow body or a
 * `return`): that function then returns an operation, and its own calls are checked.
 */
function returnedFromInferred(node: ts.Node, parent: ts.Node): boolean {
  let fn: ts.Node | undefined;
  if (ts.isArrowFunction(parent) && parent.body === node) fn = parent;
  else if (ts.isReturnStatement(parent)) fn = ts.findAncestor(parent, ts.isFunctionLike);
  return fn !== undefined && ts.isFunctionLike(fn) && fn.type === undefined;
}

/** `file:line: text` of every call returning an operation that is not run. */
function droppedOperations(program: ts.Program): string[] {
  const checker = program.getTypeChecker();
  const found: string[] = [];
  for (const source of program.getSourceFiles()) {
    if (!source.fileName.includes('/server/src/')) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && isGenerator(checker.getTypeAtLocation(node))) {
        let outer: ts.Node = node;
        while (ts.isParenthesizedExpression(outer.parent) || ts.isAsExpression(outer.parent)) outer = outer.parent;
        const parent = outer.parent;
        const delegated = ts.isYieldExpression(parent) && parent.asteriskToken !== undefined;
        const expected = isGenerator(checker.getContextualType(outer as ts.Expression));
        if (!delegated && !expected && !returnedFromInferred(outer, parent)) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart());
          found.push(`${path.relative(ROOT, source.fileName)}:${line + 1}: ${node.getText().split('\n')[0]}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

function programOf(tsconfig: string): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
  return ts.createProgram({ rootNames: config.fileNames, options: { ...config.options, noEmit: true } });
}

test('every storage operation the server builds is run', () => {
  expect(droppedOperations(programOf(path.join(ROOT, 'server', 'tsconfig.json')))).toEqual([]);
});

test('the check finds an operation that is dropped or returned as a plain value', () => {
  const file = path.join(ROOT, 'server', 'src', 'probe.ts');
  const text = `
    import type { Query, Sql } from './platform/db/query';
    function* touch(q: Sql): Query<void> { yield* q.run('UPDATE tasks SET updated_at = 0'); }
    function once<T>(fn: () => T): T { return fn(); }
    export function* good(q: Sql): Query<void> { yield* touch(q); }
    export function* dropped(q: Sql): Query<void> { touch(q); yield* q.run('SELECT 1'); }
    export function asValue(q: Sql): unknown { return once(() => touch(q)); }
  `;
  const host = ts.createCompilerHost({ strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS });
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => (name === file ? text : readFile(name));
  const exists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || exists(name);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version) => (name === file ? ts.createSourceFile(name, text, version) : getSourceFile(name, version));
  const program = ts.createProgram({ rootNames: [file], options: { strict: true, target: ts.ScriptTarget.ES2022, noEmit: true }, host });
  const found = droppedOperations(program).filter((line) => line.startsWith('server/src/probe.ts'));
  expect(found.map((line) => line.replace(/^[^:]+:\d+: /, ''))).toEqual(['touch(q)', 'once(() => touch(q))']);
});
