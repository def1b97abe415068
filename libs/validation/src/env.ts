import { z } from 'zod';

/**
 * Validates the environment once at start. A bad or missing variable stops the process with a
 * message naming every offending variable.
 */
export function parseEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`);
  throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
}

/** Variables every service reads. */
export const baseEnvShape = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z
    .string()
    .regex(/^\d{1,5}$/, 'must be a port number')
    .transform(Number)
    .pipe(z.number().int().min(1).max(65535))
    .default(3000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
};

/**
 * Secrets with documented development defaults (CONTRACT.md): in production every one must be set
 * (else the process stops naming them all); elsewhere a missing one takes its default, and
 * `defaultsUsed` lists them as `NAME=value` for the start-up log.
 */
export function secretsOrDevDefaults<K extends string>(
  parsed: { readonly [P in NoInfer<K>]?: string },
  defaults: Record<K, string>,
  production: boolean,
): { values: Record<K, string>; defaultsUsed: string[] } {
  const names = Object.keys(defaults) as K[];
  const missing = names.filter((name) => !parsed[name]);
  if (production && missing.length) {
    throw new Error(`Invalid configuration:\n${missing.map((name) => `  ${name}: is required when NODE_ENV=production`).join('\n')}`);
  }
  const values = Object.fromEntries(names.map((name) => [name, parsed[name] || defaults[name]])) as Record<K, string>;
  return { values, defaultsUsed: missing.map((name) => `${name}=${defaults[name]}`) };
}
