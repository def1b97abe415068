export * from './http-error';
export * from './normalize';
export * from './error-middleware';
export * from './bounds';
export * from './error-bodies';
