import type { CommandStartedEvent } from 'mongodb';
import type { Connection } from 'mongoose';
import { REVOCATION_COLLECTION } from '@lib/mongo';

export interface LoggedCommand {
  /** The command name: find, insert, update, aggregate, count … */
  name: string;
  /** The collection it addresses, when it has one. */
  collection?: string;
  /** The command document as sent (filter, sort, limit, skip …). */
  command: Record<string, unknown>;
}

export interface CommandLog {
  readonly commands: LoggedCommand[];
  /** Forgets what was logged so far. */
  reset(): void;
  stop(): void;
}

const HANDSHAKE = new Set(['hello', 'isMaster', 'ismaster', 'ping', 'saslStart', 'saslContinue', 'endSessions']);

/**
 * Logs every database command the connection sends (a round trip each), from the driver's command
 * monitoring, except those of the revocation log: its poll runs on a timer, not for a request.
 * The connection must be opened with `monitorCommands: true`.
 */
export function logCommands(connection: Connection): CommandLog {
  const client = connection.getClient();
  if (!client.options.monitorCommands) throw new Error('logCommands: open the connection with monitorCommands: true');
  const commands: LoggedCommand[] = [];
  const listener = (event: CommandStartedEvent) => {
    if (HANDSHAKE.has(event.commandName)) return;
    const command = event.command as Record<string, unknown>;
    const target = command[event.commandName];
    if (target === REVOCATION_COLLECTION) return;
    commands.push({ name: event.commandName, collection: typeof target === 'string' ? target : undefined, command });
  };
  client.on('commandStarted', listener);
  return {
    commands,
    reset: () => {
      commands.length = 0;
    },
    stop: () => {
      client.off('commandStarted', listener);
    },
  };
}
