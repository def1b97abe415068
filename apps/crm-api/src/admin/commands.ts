import { parseArgs } from 'node:util';
import type { AccountService } from '../accounts/account.service';
import type { UserRemoval } from '../deletions/user-removal';

export const USAGE = `Usage: npm run crm:admin -- <command> [options]

  add-user    --domain <domain> --email <email> [--name <name>] [--admin]
                                        add a user (and the account, if new); prints the user's API key
  issue-key   --email <email>           give the user a new API key (the old one stops working); prints it
  revoke-key  --email <email>           remove the user's API key: the user can no longer sign in
  make-admin  --email <email>           make the user an admin
  drop-admin  --email <email>           make the user a regular user
  disable     --email <email>           refuse the user's credentials
  enable      --email <email>           accept the user's credentials again
  list-users  --domain <domain>         the users of an account
  delete-user --email <email>           delete a user; refused while the user owns contacts or deals

The database is CRM_MONGO_URL or MONGO_URL; without either, the one \`npm start\` is running.`;

const COMMANDS = ['add-user', 'issue-key', 'revoke-key', 'make-admin', 'drop-admin', 'disable', 'enable', 'list-users', 'delete-user'];

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new Error(`--${name} is required\n\n${USAGE}`);
  return value;
}

export interface AdminArgs {
  /** undefined for `--help`, `-h`, `help` or no command: print the usage. */
  command?: string;
  values: { domain?: string; email?: string; name?: string; admin?: boolean };
}

/** Reads the command line; throws with the usage text for an unknown option or extra arguments. */
export function parseAdminArgs(argv: string[]): AdminArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        domain: { type: 'string' },
        email: { type: 'string' },
        name: { type: 'string' },
        admin: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    throw new Error(`${(err as Error).message}\n\n${USAGE}`);
  }
  const { positionals, values } = parsed;
  const { help, ...options } = values;
  const [command, ...extra] = positionals;
  if (help || command === undefined || command === 'help') return { values: options };
  if (!COMMANDS.includes(command)) throw new Error(`unknown command ${command}\n\n${USAGE}`);
  if (extra.length) throw new Error(`unexpected arguments: ${extra.join(' ')}\n\n${USAGE}`);
  return { command, values: options };
}

/** Runs one admin command; returns the lines to print. Throws with a message for bad input. */
export async function runAdminCommand(argv: string[], accounts: AccountService, users?: UserRemoval): Promise<string[]> {
  const { command, values } = parseAdminArgs(argv);
  switch (command) {
    case 'add-user': {
      const { user, apiKey } = await accounts.addUser({
        domain: required(values, 'domain'),
        email: required(values, 'email'),
        name: values.name,
        admin: values.admin,
      });
      return [`added ${user.email} (id ${user._id}) to ${user.domain}${user.is_admin ? ' as admin' : ''}`, `API key: ${apiKey}`];
    }
    case 'issue-key': {
      const email = required(values, 'email');
      return [`new API key for ${email}: ${await accounts.issueKey(email)}`];
    }
    case 'revoke-key':
      return [`revoked the API key of ${(await accounts.revokeKey(required(values, 'email'))).email}`];
    case 'make-admin':
      return [`${(await accounts.setAdmin(required(values, 'email'), true)).email} is now an admin`];
    case 'drop-admin':
      return [`${(await accounts.setAdmin(required(values, 'email'), false)).email} is no longer an admin`];
    case 'disable':
      return [`${(await accounts.setDisabled(required(values, 'email'), true)).email} is disabled`];
    case 'enable':
      return [`${(await accounts.setDisabled(required(values, 'email'), false)).email} is enabled`];
    case 'list-users': {
      const domain = required(values, 'domain');
      const users = await accounts.usersOfDomain(domain);
      if (!users) throw new Error(`no account has the domain ${domain}`);
      return users.map((u) => `${u._id}\t${u.email}\t${u.is_admin ? 'admin' : 'user'}${u.is_account_owner ? ', owner' : ''}${u.is_disabled ? ', disabled' : ''}${u.api_key_hash ? '' : ', no key'}`);
    }
    case 'delete-user': {
      if (!users) throw new Error('delete-user needs the database connection');
      return [`deleted ${(await users.remove(required(values, 'email'))).email}`];
    }
    case undefined:
      return [USAGE];
    default:
      throw new Error(`unknown command ${command}\n\n${USAGE}`);
  }
}
