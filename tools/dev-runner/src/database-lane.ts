import { redactMongoUrl } from '@lib/mongo';
import type { ServiceEntry } from '@lib/services';

export interface DatabaseChoice {
  /** Services with a configured server: the variable that names it and its URL. */
  configured: { name: string; variable: string; url: string }[];
  /** Services with no URL at all: they share one embedded server. */
  embedded: string[];
}

/** Per service: `<PREFIX>_MONGO_URL`, else `MONGO_URL`, else the embedded server (the contract's order). */
export function chooseDatabases(services: readonly ServiceEntry[], env: NodeJS.ProcessEnv): DatabaseChoice {
  const choice: DatabaseChoice = { configured: [], embedded: [] };
  for (const service of services) {
    const variable = [`${service.envPrefix}_MONGO_URL`, 'MONGO_URL'].find((name) => env[name]);
    const url = variable && env[variable];
    if (variable && url) choice.configured.push({ name: service.name, variable, url });
    else choice.embedded.push(service.name);
  }
  return choice;
}

/** The start-up lines that say which database lane each service took. */
export function describeDatabases(choice: DatabaseChoice, embeddedUri?: string): string[] {
  const byVariable = new Map<string, { names: string[]; url: string }>();
  for (const { name, variable, url } of choice.configured) {
    const group = byVariable.get(variable) ?? { names: [], url };
    group.names.push(name);
    byVariable.set(variable, group);
  }
  const lines = [...byVariable].map(
    ([variable, { names, url }]) => `database: ${names.join(', ')} ${names.length > 1 ? 'use' : 'uses'} ${variable} (${redactMongoUrl(url)})`,
  );
  if (choice.embedded.length > 0) {
    lines.push(
      `database: ${choice.embedded.join(', ')} use the embedded in-memory server at ${embeddedUri ?? '(not started)'}` +
        ' (data is lost at exit; set MONGO_URL for a real MongoDB)',
    );
  }
  return lines;
}
