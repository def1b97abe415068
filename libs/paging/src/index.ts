export * from './cursor';
export * from './keyset';
