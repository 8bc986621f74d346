// ESLint for the service's own code (server/src, engine/src, web/src, test): typescript-eslint's
// recommended rules, `no-explicit-any` as a warning. Run with `npm run lint:code`.
// Kept apart from eslint.config.mjs, which is the n8n package's stock config (`npm run lint`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'web/src/api/schema.d.ts'] },
  {
    files: ['server/src/**/*.ts', 'engine/src/**/*.ts', 'web/src/**/*.{ts,tsx}', 'test/**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    rules: {
      '@typescript-eslint/no-explicit-any': 'warn',
      // Names starting with `_` are unused on purpose (a required parameter, a skipped tuple item).
      // `const { id, ...rest } = row` leaves `id` out on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // A handle assigned once after the closures that clear it (a timer) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Tests load some modules lazily with require() (n8n internals, the CLI's child_process).
    files: ['test/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  { files: ['server/src/platform/db/statements.ts'], rules: { '@typescript-eslint/no-empty-object-type': 'off' } },
  {
    // The web app's data access per feature (docs/architecture.md "Web data access"): a query key
    // is spelled once, in web/src/api/keys.ts, and a query is declared once, as `queryOptions` in its
    // feature's api.ts; screens (the automation builder's included) use those. No web function is
    // over 100 lines.
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: ['web/src/**/api.ts', 'web/src/api/keys.ts'],
    rules: {
      // Components and hooks stay small: a screen composes hooks and smaller components.
      'max-lines-per-function': ['error', { max: 100 }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "Property[key.name='queryKey'] > ArrayExpression",
          message: "A literal query key: declare the query in its feature's api.ts with a key from web/src/api/keys.ts.",
        },
        {
          selector: 'CallExpression[callee.property.name=/^(setQueryData|getQueryData|setQueriesData|getQueriesData)$/] > ArrayExpression',
          message: 'A literal query key: name the data with a key from web/src/api/keys.ts.',
        },
      ],
    },
  },
);
