export * from './revocable-cache';
