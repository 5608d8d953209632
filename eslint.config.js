// Lint rules: typescript-eslint recommended plus the two rules the MCP SDK's config adds (its eslint.config.mjs).
import tseslint from 'typescript-eslint';
import n from 'eslint-plugin-n';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/.work/**', 'coverage/**'] },
  ...tseslint.configs.recommended,
  {
    plugins: { n },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      'n/prefer-node-protocol': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  // CommonJS on purpose (scripts/cli-cache.cjs, which requires the CLI's CommonJS loader
  // bin/skilldex.js to write its code cache): require() is how it imports.
  {
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
