// Jest setup (setupFilesAfterEnv) of every project: each answer a route returns (JSON and XML alike) is checked against
// the schema it declares, and a test whose requests broke that contract fails, naming route and issue.
import { CHECK_RESPONSES_ENV, takeResponseViolations } from '../response-check';

process.env[CHECK_RESPONSES_ENV] = '1';

beforeEach(() => {
  takeResponseViolations();
});

afterEach(() => {
  const found = takeResponseViolations();
  if (found.length) throw new Error(`Responses that do not match their route's declared schema:\n${found.join('\n')}`);
});
