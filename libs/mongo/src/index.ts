export * from './connect';
export * from './counter';
export * from './driver-collection';
export * from './database';
export * from './embedded';
export * from './target';
export * from './embedded-url-file';
