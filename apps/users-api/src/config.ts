import { resolveMongoTarget, type MongoTarget } from '@lib/mongo';
import { baseEnvShape, parseEnv, z } from '@lib/validation';

const DEV_CURSOR_SECRET = 'users-api-development-cursor-secret';

const envSchema = z.object({
  ...baseEnvShape,
  USERS_API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  USERS_CURSOR_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
});

export interface UsersConfig {
  production: boolean;
  port: number;
  logLevel: string;
  apiKey?: string;
  cursorSecret: string;
  database: MongoTarget;
  warnings: string[];
}

export function loadConfig(env: NodeJS.ProcessEnv): UsersConfig {
  const parsed = parseEnv(envSchema, env);
  const production = parsed.NODE_ENV === 'production';
  const warnings: string[] = [];
  if (production && !parsed.USERS_API_KEY) warnings.push('USERS_API_KEY is not set: anyone can add users');
  if (production && !parsed.USERS_CURSOR_SECRET) warnings.push('USERS_CURSOR_SECRET is not set: page cursors are signed with the public development secret');
  return {
    production,
    port: parsed.PORT,
    logLevel: parsed.LOG_LEVEL,
    apiKey: parsed.USERS_API_KEY,
    cursorSecret: parsed.USERS_CURSOR_SECRET ?? DEV_CURSOR_SECRET,
    database: resolveMongoTarget('USERS', 'users', env),
    warnings,
  };
}
