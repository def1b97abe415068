export { z } from 'zod';
export * from './field-issues';
export * from './env';
export * from './parse';
export * from './safe-input';
export * from './schemas';
export * from './route';
export * from './openapi';
export * from './xml-input';
