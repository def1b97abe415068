import type { Response } from 'express';
import type { AnyRoute } from './route';

/**
 * Set (to `1`) by the jest setup of every project: each 2xx JSON body is then checked against the
 * schema its route declares, and each 2xx status against the statuses it declares. Never with
 * NODE_ENV=production: the check parses every answer again (and wraps `res.send` per request), a
 * test's cost, not a service's.
 */
export const CHECK_RESPONSES_ENV = 'CHECK_RESPONSES';

/** What the check found since the last `takeResponseViolations()`: the test setup fails the test that caused any. */
const violations: string[] = [];

export function takeResponseViolations(): string[] {
  return violations.splice(0);
}

export const checkingResponses = () => process.env[CHECK_RESPONSES_ENV] === '1' && process.env.NODE_ENV !== 'production';

/**
 * Makes the response check, as ts-rest's response validation does, every 2xx JSON body against the
 * schema the route declares for that status (the body as sent, whether `res.json` serialized it or
 * the route sent JSON text it built itself; a missing schema is a violation too) and every 2xx
 * status against the statuses the route declares. A body that breaks its schema is answered as a
 * 500; every violation is recorded (the jest setup fails the test with it), so the OpenAPI
 * document cannot drift from what handlers send.
 */
export function checkResponses(route: AnyRoute, res: Response): void {
  const send = res.send.bind(res);
  // res.json(body) ends in res.send(text) with the JSON type set: every JSON answer passes here as text
  res.send = (body?: unknown) => {
    const status = res.statusCode;
    if (status >= 200 && status < 300 && typeof body === 'string' && isJson(res)) {
      const problem = violation(route, status, JSON.parse(body));
      if (problem) {
        violations.push(problem);
        throw new Error(problem);
      }
    }
    return send(body);
  };
  // a bodyless 2xx (204, or an empty 200) never passes through res.send: its status is checked when it is sent
  res.once('finish', () => {
    const status = res.statusCode;
    if (status >= 200 && status < 300 && !route.responses[status]) violations.push(`${answered(route, status)}, a status it does not declare`);
  });
}

const answered = (route: AnyRoute, status: number) => `${route.method.toUpperCase()} ${route.path} answered ${status}`;

const isJson = (res: Response) => /^application\/json\b/.test(String(res.get('Content-Type') ?? ''));

function violation(route: AnyRoute, status: number, body: unknown): string | undefined {
  const at = answered(route, status);
  const schema = route.responses[status]?.schema;
  if (!schema) return `${at} with a JSON body but declares no schema for ${status}`;
  const result = schema.safeParse(body);
  if (result.success) return undefined;
  const issues = result.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`);
  return `${at} a body its schema refuses: ${issues.join('; ')}`;
}
