// ESLint 9 flat config (docs: README, "Contributing"). The type-aware rules need each file's own
// TypeScript program, so every tsconfig that `npm run typecheck` checks is listed; the test one
// comes last because it also pulls in the package sources the tests import, which belong to
// their own package's program.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const tsconfigs = [
  './packages/client/tsconfig.json',
  './packages/server/tsconfig.json',
  './packages/cli/tsconfig.json',
  './packages/studio/tsconfig.json',
  './tsconfig.test.json',
  './examples/blog/tsconfig.json',
];

export default tseslint.config(
  {
    ignores: ['**/dist/', '**/node_modules/', '**/data/', 'coverage/', '.bench/', 'test-results/'],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    files: ['**/*.{js,mjs}'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    languageOptions: {
      parserOptions: { project: tsconfigs, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // A `default` branch is a decision about the members it does not name; a switch without
      // one must name them all.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // As tsc's noUnusedParameters: a leading underscore marks a binding a signature or a
      // destructuring needs but the code does not read.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
);
