export { bundleApp } from '@lib/http/testing';
