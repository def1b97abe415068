import type { AnyReply, AnyRoute } from './route';

/**
 * Set (to `1`) by the jest setup of every project: each answer a handler returns is then checked
 * against what its route declares before it is rendered. Never with NODE_ENV=production: the check
 * parses every answer again, a test's cost, not a service's.
 */
export const CHECK_RESPONSES_ENV = 'CHECK_RESPONSES';

/** What the check found since the last `takeResponseViolations()`: the test setup fails the test that caused any. */
const violations: string[] = [];

export function takeResponseViolations(): string[] {
  return violations.splice(0);
}

export const checkingResponses = () => process.env[CHECK_RESPONSES_ENV] === '1' && process.env.NODE_ENV !== 'production';

/**
 * The response check, as ts-rest's response validation does: the status must be one the route
 * declares, the body must match the schema declared for it (none when it declares none), and text
 * a route wrote itself must be, byte for byte, that body as the app writes it. The check runs on the answer before it is
 * rendered, so it holds for JSON and XML alike (both are written from the same object). A broken
 * answer is recorded (the jest setup fails the test with it) and answered as a 500, so the OpenAPI
 * document cannot drift from what handlers return.
 */
export function checkReply(route: AnyRoute, reply: AnyReply, serialize: (body: unknown) => string): void {
  const problem = violation(route, reply, serialize);
  if (!problem) return;
  violations.push(problem);
  throw new Error(problem);
}

const answered = (route: AnyRoute, status: number) => `${route.method.toUpperCase()} ${route.path} answered ${status}`;

function violation(route: AnyRoute, { status, body, text }: AnyReply, serialize: (body: unknown) => string): string | undefined {
  const at = answered(route, status);
  const declared = route.responses[status];
  if (!declared) return `${at}, a status it does not declare`;
  if (!declared.schema) return body === undefined ? undefined : `${at} with a body but declares no schema for ${status}`;
  if (body === undefined) return `${at} without a body but declares one for ${status}`;
  const result = declared.schema.safeParse(body);
  if (!result.success) {
    const issues = result.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`);
    return `${at} a body its schema refuses: ${issues.join('; ')}`;
  }
  if (text !== undefined && text !== serialize(body)) return `${at} text that is not its body as written`;
  return undefined;
}
