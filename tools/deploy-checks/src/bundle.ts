export { bundleApp, bundleProject } from '@lib/testing';
