export * from './route';
export * from './openapi';
