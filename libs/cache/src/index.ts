export * from './revocable-cache';
export * from './lru';
