import { resolveMongoTarget, type MongoTarget } from '@lib/mongo';
import { baseEnvShape, parseEnv, refusePlaceholderSecrets, z } from '@lib/validation';

const envSchema = z.object({
  ...baseEnvShape,
  ARTICLES_API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
});

export interface ArticlesConfig {
  production: boolean;
  port: number;
  logLevel: string;
  apiKey?: string;
  database: MongoTarget;
}

export function loadConfig(env: NodeJS.ProcessEnv): ArticlesConfig {
  const parsed = parseEnv(envSchema, env);
  const production = parsed.NODE_ENV === 'production';
  refusePlaceholderSecrets(parsed, ['ARTICLES_API_KEY'], production);
  return {
    production,
    port: parsed.PORT,
    logLevel: parsed.LOG_LEVEL,
    apiKey: parsed.ARTICLES_API_KEY,
    database: resolveMongoTarget('ARTICLES', 'articles', env),
  };
}
