import { existsSync, readFileSync } from 'node:fs';
import { connectMongo, EMBEDDED_URL_FILE, resolveMongoTarget } from '@lib/mongo';
import { USAGE, parseAdminArgs, runAdminCommand } from './admin/commands';
import { crmData } from './wiring';

/** `npm run crm:admin -- <command>`: manage the users and API keys of accounts. */
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  // the usage and bad arguments need no database
  if (parseAdminArgs(argv).command === undefined) return void console.log(USAGE);
  const target = resolveMongoTarget('CRM', 'crm', process.env);
  const url = target.url ?? (existsSync(EMBEDDED_URL_FILE) ? readFileSync(EMBEDDED_URL_FILE, 'utf8').trim() : undefined);
  if (!url) throw new Error('No database: set CRM_MONGO_URL or MONGO_URL, or start the services with `npm start` first');
  const connection = await connectMongo({ url, dbName: target.dbName });
  try {
    const { accounts, users } = crmData(connection);
    for (const line of await runAdminCommand(argv, accounts, users)) console.log(line);
  } finally {
    await connection.close();
  }
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
