export * from './service-table';
export * from './node-flags';
export * from './probe-paths';
export * from './probe-path-spellings';
export * from './free-port';
export * from './network-settings';
