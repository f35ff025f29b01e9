// ESLint (flat config): JavaScript and typescript-eslint recommended rules; formatting is Prettier's
// (eslint-config-prettier turns off the rules it owns). `npm run lint` runs this with --max-warnings 0.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'deploy/**'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // A `let` assigned once after closures that read it were created (a hook set up before the app exists).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // A table keyed by outside text (a book, market or event id, a parameter's value) must not inherit
    // Object.prototype's members: a book named `constructor` would find a function there. Such a table is a Map or
    // `dict()` (src/domain/dict.ts, a null-prototype object); membership is Map#has or Object.hasOwn, never `in`.
    files: ['src/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          "VariableDeclarator[id.typeAnnotation.typeAnnotation.typeName.name='Record'][id.typeAnnotation.typeAnnotation.typeArguments.params.0.type='TSStringKeyword'] > ObjectExpression.init",
          "VariableDeclarator[id.typeAnnotation.typeAnnotation.typeName.name='Readonly'][id.typeAnnotation.typeAnnotation.typeArguments.params.0.typeName.name='Record'][id.typeAnnotation.typeAnnotation.typeArguments.params.0.typeArguments.params.0.type='TSStringKeyword'] > ObjectExpression.init",
          "PropertyDefinition[typeAnnotation.typeAnnotation.typeName.name='Record'][typeAnnotation.typeAnnotation.typeArguments.params.0.type='TSStringKeyword'] > ObjectExpression.value",
          "AssignmentPattern[left.typeAnnotation.typeAnnotation.typeName.name='Record'][left.typeAnnotation.typeAnnotation.typeArguments.params.0.type='TSStringKeyword'] > ObjectExpression.right",
          "TSAsExpression[typeAnnotation.typeName.name='Record'][typeAnnotation.typeArguments.params.0.type='TSStringKeyword'] > ObjectExpression.expression",
        ].map((selector) => ({
          selector,
          message: 'An object literal as a Record inherits `constructor`, `toString`...: use a Map or dict() (src/domain/dict.ts).',
        })),
        {
          selector: "BinaryExpression[operator='in'][left.type!='Literal']",
          message: '`in` finds inherited members (`constructor` in {} is true): use Map#has or Object.hasOwn.',
        },
      ],
    },
  },
  {
    // The application's composition (createApp) and the CLI read as lists of named steps: no function over 60 lines.
    files: ['src/app.factory.ts', 'src/cli/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 60 }] },
  },
  {
    // Tests read untyped JSON responses (`any` there is the response body as the test sees it).
    files: ['test/**/*.ts', '**/*.spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The dashboard: a browser page reading the API's JSON (typed where it computes, `any` where it only displays).
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
