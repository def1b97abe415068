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

/** Helpers of @lib/mongo and @lib/paging that take a model, a collection or the connection. */
const DATABASE_HELPERS = [
  { name: '@lib/mongo', importNames: ['driverCollection', 'insertWithSequenceId', 'removeFromLists', 'updateByRevision', 'timeOrderedIds', 'idSequence', 'nextSequence', 'revocationLog'] },
  { name: '@lib/paging', importNames: ['modelSource', 'collectionSource'] },
];

/**
 * The rules that keep an app's database behind one door: outside `door` (and the models' files),
 * no model value from a `*.model` file, no helper that takes a model or a connection, no mongoose
 * (not even its types: the connection stops at `wiring`, which may import its types), and no
 * `.collection(…)`, `.model(…)`, `.db`, `.models` or `.collection` on anything. With `accountIds`:
 * only `allowedIn` (and the door) may make an AccountId.
 */
function databaseDoor({ files, door, wiring, message, accountIds }) {
  const restrictions = ({ mongooseTypes, makeAccountIds }) => ({
    paths: [
      ...DATABASE_HELPERS.map((helper) => ({ ...helper, message })),
      { name: 'mongoose', message, allowTypeImports: mongooseTypes },
      { name: 'mongodb', message, allowTypeImports: mongooseTypes },
    ],
    patterns: [
      { group: ['**/*.model'], importNamePattern: '^[a-z]\\w*Model$', message },
      ...(accountIds && !makeAccountIds ? [{ group: [accountIds.module], importNames: ['accountIdOf', 'idOfAccount'], message: 'Only the auth scheme and the store make an AccountId.' }] : []),
    ],
  });
  const rules = (options) => ({
    '@typescript-eslint/no-restricted-imports': ['error', restrictions(options)],
    'no-restricted-syntax': [
      'error',
      { selector: "CallExpression[callee.property.name='model']", message },
      // `connection.collection('contacts')`, `Model.collection.insertOne`, `model.db`, `connection.models.Contact`
      { selector: 'MemberExpression[property.name=/^(db|models|collection)$/]', message },
    ],
  });
  const ignores = [...door, '**/*.model.ts', '**/*.spec.ts'];
  return [
    { files, ignores, rules: rules({ mongooseTypes: false, makeAccountIds: false }) },
    { files: wiring, rules: rules({ mongooseTypes: true, makeAccountIds: false }) },
    ...(accountIds ? [{ files: accountIds.allowedIn, ignores, rules: rules({ mongooseTypes: false, makeAccountIds: true }) }] : []),
  ];
}

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
  // Each app reaches its database through one door: crm-api's account-bound store (store/, whose
  // repositories get their account scope from it), each other app's repositories. Outside that
  // door, the models' files and the wiring, no code can name a model, a collection or the connection.
  ...databaseDoor({
    files: ['apps/crm-api/src/**/*.ts'],
    door: ['apps/crm-api/src/store/**'],
    wiring: ['apps/crm-api/src/wiring.ts'],
    message: 'Tenant data is reached through the account-bound store (ctx.store, apps/crm-api/src/store/); the connection stops at the wiring.',
    // an AccountId comes from the signed-in user (the auth scheme) or the cross-tenant module (store/), never from a number a caller sent
    accountIds: { allowedIn: ['apps/crm-api/src/auth/**'], module: '**/store/account-id' },
  }),
  ...['articles-api', 'users-api', 'news-api'].flatMap((app) =>
    databaseDoor({
      files: [`apps/${app}/src/**/*.ts`],
      door: [`apps/${app}/src/**/*.repository.ts`, `apps/${app}/src/repositories.ts`],
      wiring: ['app.ts', 'service.ts', 'main.ts'].map((file) => `apps/${app}/src/${file}`),
      message: 'Query through the resource repository (*.repository.ts); the connection stops at the wiring (app.ts, service.ts, main.ts, repositories.ts).',
    }),
  ),
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
