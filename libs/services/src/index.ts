export * from './service-table';
export * from './node-flags';
