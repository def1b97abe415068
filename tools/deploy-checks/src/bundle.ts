export { bundleApp, bundleProject } from '@lib/http/testing';
