export * from './lint-openapi';
