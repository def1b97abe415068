export * from './cursor';
export * from './keyset';
export * from './sort-key';
