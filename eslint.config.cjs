const nx = require('@nx/eslint-plugin');

module.exports = [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  { ignores: ['**/dist', '**/node_modules', '**/reports', '**/.nx'] },
  {
    files: ['**/*.ts'],
    rules: {
      // Apps are deployed alone: they may use libs, never each other. Tools may use libs too.
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // crm-api: only repositories reach the database (services receive them); the wiring registers the models
    files: ['apps/crm-api/src/**/*.ts'],
    ignores: ['apps/crm-api/src/**/*.repository.ts', 'apps/crm-api/src/**/*.model.ts', 'apps/crm-api/src/store/**', 'apps/crm-api/src/repositories.ts', 'apps/crm-api/src/**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: '@lib/mongo', importNames: ['driverCollection', 'insertWithSequenceId'], message: 'Query through the resource repository (*.repository.ts).' }],
          patterns: [{ group: ['**/*.model'], importNamePattern: 'Model$', message: 'Query through the resource repository (*.repository.ts); import only types from models.' }],
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/test/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
];
