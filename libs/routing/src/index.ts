export * from './route';
export * from './openapi';
export * from './response-check';
