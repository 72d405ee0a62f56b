import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import architecture from './scripts/eslint-plugin-architecture.mjs';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // The web app must not reach into the server (ARCHITECTURE.md, dependency direction).
    files: ['apps/web/**/*.{ts,tsx}', 'packages/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['**/apps/api/**', '@inventory/api', 'fastify', 'pg', '@electric-sql/*'] },
      ],
    },
  },
  {
    // No import cycles; an area is used by another only through its index.ts (ARCHITECTURE.md).
    files: ['apps/api/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}', 'packages/contract/src/**/*.ts'],
    plugins: { architecture },
    rules: {
      'architecture/no-cycle': [
        'error',
        { sourceTrees: ['apps/api/src', 'apps/web/src', 'packages/contract/src'] },
      ],
      'architecture/area-index': [
        'error',
        { areaParents: ['apps/api/src/modules', 'apps/web/src/features'] },
      ],
    },
  },
  {
    files: ['bench/**/*.mjs', 'scripts/**/*.mjs'],
    rules: { 'no-console': 'off' },
  },
);
