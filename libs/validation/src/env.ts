import { parseBindAddress, parseTrustedProxies, type TrustedProxies } from '@lib/services';
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

/** A variable read by `read`, whose error message becomes the variable's issue. */
const setting = <T>(read: (value: string | undefined) => T) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      try {
        return read(value);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    });

/** Where a service listens when BIND_ADDRESS is not set: loopback (containers set 0.0.0.0). */
export const DEFAULT_BIND_ADDRESS = '127.0.0.1';

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
  BIND_ADDRESS: setting((value) => parseBindAddress(value) ?? DEFAULT_BIND_ADDRESS),
  TRUST_PROXY: setting(parseTrustedProxies),
};

/**
 * Secrets with documented development defaults (README.md, Configuration): in production every one must be set
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

/** The shortest secret production accepts (`openssl rand -hex 24` gives 48 characters). */
export const MIN_PRODUCTION_SECRET_LENGTH = 32;

/** Words that mark a value someone forgot to replace, matched in any letter case. */
const PLACEHOLDER_WORDS = /change[-_ .]?me|changeit|replace[-_ .]?me|placeholder|example|sample|dummy|development|not[-_ .]?for[-_ .]?production|x{3}|<[^>]*>/i;

/**
 * Why `value` cannot be a production secret, or undefined when it can. The rule (documented in the
 * README's Configuration section): at least 32 characters, at least 8 different characters, none
 * of the placeholder words above, and none of the public development values.
 */
export function placeholderReason(value: string, developmentValues: readonly string[] = []): string | undefined {
  if (developmentValues.includes(value)) return 'is a public development value';
  const word = PLACEHOLDER_WORDS.exec(value);
  if (word) return `looks like a placeholder (contains "${word[0]}")`;
  if (value.length < MIN_PRODUCTION_SECRET_LENGTH) return `is shorter than ${MIN_PRODUCTION_SECRET_LENGTH} characters`;
  if (new Set(value).size < 8) return 'has fewer than 8 different characters';
  return undefined;
}

/**
 * With NODE_ENV=production, stops the process naming every set secret among `names` that looks
 * like a placeholder (see placeholderReason). Unset ones are left to the caller (required or optional).
 */
export function refusePlaceholderSecrets(
  values: { readonly [name: string]: unknown },
  names: readonly string[],
  production: boolean,
  developmentValues: readonly string[] = [],
): void {
  if (!production) return;
  const problems = names.flatMap((name) => {
    const value = values[name];
    const reason = typeof value === 'string' && value !== '' ? placeholderReason(value, developmentValues) : undefined;
    return reason ? [`  ${name}: ${reason}; use a random value of ${MIN_PRODUCTION_SECRET_LENGTH}+ characters, e.g. from \`openssl rand -hex 24\``] : [];
  });
  if (problems.length) throw new Error(`Invalid configuration (NODE_ENV=production):\n${problems.join('\n')}`);
}

/** The settings every service's configuration starts with. */
export interface BaseServiceConfig {
  production: boolean;
  port: number;
  /** BIND_ADDRESS: the address the service listens on (DEFAULT_BIND_ADDRESS, loopback, unless set). */
  bindAddress: string;
  /** TRUST_PROXY: whose X-Forwarded-For gives the client's address (nobody unless set). */
  trustedProxies: TrustedProxies;
  logLevel: string;
}

/** The start-up warning naming the development defaults in use (`defaultsUsed` of readServiceEnv), if any. */
export const devDefaultsWarnings = (defaultsUsed: readonly string[]): string[] => (defaultsUsed.length ? [`development defaults in use: ${defaultsUsed.join(', ')}`] : []);

type BaseEnv = { NODE_ENV: string; PORT: number; LOG_LEVEL: string; BIND_ADDRESS: string; TRUST_PROXY: TrustedProxies };

/**
 * What every service's `loadConfig` does first: validates the environment against `schema` (built
 * on baseEnvShape), fills the secrets of `devDefaults` (see secretsOrDevDefaults), refuses a
 * placeholder in any of `checkedSecrets` in production (see refusePlaceholderSecrets), and gives
 * the base settings.
 */
export function readServiceEnv<S extends z.ZodType<BaseEnv, unknown>, K extends string = never>(
  schema: S,
  env: NodeJS.ProcessEnv,
  secrets: { devDefaults?: Record<K, string>; checked: readonly string[] },
): { parsed: z.output<S>; base: BaseServiceConfig; values: Record<K, string>; defaultsUsed: string[] } {
  const parsed = parseEnv(schema, env);
  const production = parsed.NODE_ENV === 'production';
  const devDefaults = secrets.devDefaults ?? ({} as Record<K, string>);
  const { values, defaultsUsed } = secretsOrDevDefaults(parsed as { readonly [P in K]?: string }, devDefaults, production);
  refusePlaceholderSecrets(parsed as Record<string, unknown>, secrets.checked, production, Object.values(devDefaults));
  return {
    parsed,
    base: { production, port: parsed.PORT, bindAddress: parsed.BIND_ADDRESS, trustedProxies: parsed.TRUST_PROXY, logLevel: parsed.LOG_LEVEL },
    values,
    defaultsUsed,
  };
}
