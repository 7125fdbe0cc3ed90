// ESLint for the page's plain ES modules (browser) and their node unit tests (tests/js).
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['node_modules/', '.venv/', 'bench/', 'build/', 'dist/', 'test-artifacts/'] },
  js.configs.recommended,
  {
    files: ['src/cribbage/web/static/**/*.js'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: globals.browser },
    // The page stays readable: no module over 600 lines, no function over 80 (issue 30).
    rules: {
      'max-lines': ['error', { max: 600 }],
      'max-lines-per-function': ['error', { max: 80 }],
    },
  },
  {
    files: ['tests/js/**/*.js', 'eslint.config.js'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: globals.node },
  },
  {
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
];
