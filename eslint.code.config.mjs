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
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
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
);
