const nx = require('@nx/eslint-plugin');

// Apps are deployed alone: they may use libs, never each other. Tools may use libs and the test
// tooling (they are benches and checks).
function boundaries({ testFiles }) {
  const libs = testFiles ? ['type:lib', 'type:testing'] : ['type:lib'];
  return {
    enforceBuildableLibDependency: true,
    allow: [],
    // A lib's own tests run on the tooling built from that lib (a test database, a faulty one).
    ignoredCircularDependencies: [['mongo', 'testing'], ['http', 'testing']],
    depConstraints: [
      { sourceTag: 'type:app', onlyDependOnLibsWithTags: libs },
      { sourceTag: 'type:lib', onlyDependOnLibsWithTags: libs },
      { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:lib', 'type:testing'] },
      { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib', 'type:testing'] },
    ],
  };
}

const TEST_FILES = ['**/*.spec.ts', '**/test/**/*.ts'];

module.exports = [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  { ignores: ['**/dist', '**/node_modules', '**/reports', '**/.nx'] },
  {
    files: ['**/*.ts'],
    rules: {
      // Test tooling (@lib/testing, tag type:testing) is for tests only: the block below lets test
      // files use it; an app's or a lib's own source may not.
      '@nx/enforce-module-boundaries': ['error', boundaries({ testFiles: false })],
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
    files: TEST_FILES,
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@nx/enforce-module-boundaries': ['error', boundaries({ testFiles: true })],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
];
