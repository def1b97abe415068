import { resolveMongoTarget, type MongoTarget } from '@lib/mongo';
import { baseEnvShape, devDefaultsWarnings, readServiceEnv, z, type BaseServiceConfig } from '@lib/validation';

/** Printed at start when used; never used with NODE_ENV=production. */
const DEV_DEFAULTS = {
  USERS_CURSOR_SECRET: 'users-api-development-cursor-secret',
} as const;

const envSchema = z.object({
  ...baseEnvShape,
  USERS_API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  USERS_CURSOR_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
});

export interface UsersConfig extends BaseServiceConfig {
  apiKey?: string;
  cursorSecret: string;
  database: MongoTarget;
  warnings: string[];
}

/**
 * Reads the users configuration once at start. Outside production a missing cursor secret falls
 * back to the development default (printed); in production it is required (README.md, Configuration).
 */
export function loadConfig(env: NodeJS.ProcessEnv): UsersConfig {
  const { parsed, base, values, defaultsUsed } = readServiceEnv(envSchema, env, { devDefaults: DEV_DEFAULTS, checked: ['USERS_CURSOR_SECRET', 'USERS_API_KEY'] });
  const warnings = devDefaultsWarnings(defaultsUsed);
  if (base.production && !parsed.USERS_API_KEY) warnings.push('USERS_API_KEY is not set: anyone can add users');
  return {
    ...base,
    apiKey: parsed.USERS_API_KEY,
    cursorSecret: values.USERS_CURSOR_SECRET,
    database: resolveMongoTarget('USERS', 'users', env),
    warnings,
  };
}
