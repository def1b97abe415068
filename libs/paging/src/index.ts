export * from './cursor';
export * from './fill-page';
export * from './keyset';
export * from './offset-page';
export * from './page-source';
export * from './pager';
export * from './position';
export * from './sort-key';
