export * from './service-table';
