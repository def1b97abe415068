export { z } from 'zod';
export * from './field-issues';
export * from './env';
export * from './parse';
export * from './safe-input';
export * from './schemas';
export * from './xml-input';
export * from './single-quoted-json';
