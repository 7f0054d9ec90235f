import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'e2e/artifacts/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/renderer/**'], message: 'server/ and app/ never import the renderer.' }] },
      ],
    },
  },
  {
    files: ['server/test/**', '**/*.test.ts', 'e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**'], message: 'The renderer talks to the server over HTTP; it imports only contracts/.' },
            { group: ['**/app/**'], message: 'The renderer reaches the desktop shell only through window.desktop.' },
            // zod in the console's bundle probes `new Function`, which its CSP (no 'unsafe-eval') reports as a violation.
            { group: ['zod', 'zod/*'], allowTypeImports: true, message: 'The console loads no zod; the server validates.' },
            {
              regex: '/contracts/(?!enums$|collection-basics$|console/views$)',
              allowTypeImports: true,
              message: 'This module builds zod schemas: the renderer takes only types from it, and values from enums.ts, collection-basics.ts or console/views.ts.',
            },
          ],
        },
      ],
    },
  },
);
