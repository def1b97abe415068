import { resolveMongoTarget, type MongoTarget } from '@lib/mongo';
import { baseEnvShape, readServiceEnv, z, type BaseServiceConfig } from '@lib/validation';

const envSchema = z.object({
  ...baseEnvShape,
  ARTICLES_API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
});

export interface ArticlesConfig extends BaseServiceConfig {
  apiKey?: string;
  database: MongoTarget;
}

export function loadConfig(env: NodeJS.ProcessEnv): ArticlesConfig {
  const { parsed, base } = readServiceEnv(envSchema, env, { checked: ['ARTICLES_API_KEY'] });
  return {
    ...base,
    apiKey: parsed.ARTICLES_API_KEY,
    database: resolveMongoTarget('ARTICLES', 'articles', env),
  };
}
