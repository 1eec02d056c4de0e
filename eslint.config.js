import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // scripts/vendor: third-party files copied unchanged (their SOURCE.md says from where).
  { ignores: ['node_modules/', 'cdk.out/', '.data/', 'bench/results/', 'scripts/vendor/'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', fetch: 'readonly', URL: 'readonly', TextEncoder: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // Browser code: its tsconfig lists Node's types only to check the server schemas the API types come from.
    files: ['web/dashboard/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-globals': ['error', 'process', 'Buffer', 'global', 'require', '__dirname'],
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*'], message: 'Browser code: no Node modules.' }] }],
    },
  },
  {
    files: ['tests/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
