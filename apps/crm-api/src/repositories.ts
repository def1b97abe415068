import type { Connection } from 'mongoose';
import { accountModel } from './accounts/account.model';
import { domainUserModel } from './accounts/domain-user.model';
import { userRepository } from './accounts/user.repository';
import { contactModel, emailClaimModel } from './contacts/contact.model';
import { contactRepository } from './contacts/contact.repository';
import { emailClaimRepository } from './contacts/email-claim.repository';
import { dealModel } from './deals/deal.model';
import { dealRepository } from './deals/deal.repository';
import { eventModel } from './events/event.model';
import { eventRepository } from './events/event.repository';
import { noteModel } from './notes/note.model';
import { noteRepository } from './notes/note.repository';
import { taskModel } from './tasks/task.model';
import { taskRepository } from './tasks/task.repository';
import { trackModel } from './tracks/track.model';
import { trackRepository } from './tracks/track.repository';

const MODELS = [accountModel, domainUserModel, contactModel, emailClaimModel, trackModel, dealModel, noteModel, taskModel, eventModel];

/**
 * The account-scoped repositories of every resource: what services receive instead of models.
 * Every model is registered on the connection here, once, so that the start-up makes each
 * collection and its indexes (ensureIndexes) before the first request.
 */
export function crmRepositories(connection: Connection) {
  for (const model of MODELS) model(connection);
  return {
    users: (account: number) => userRepository(connection, account),
    contacts: (account: number) => contactRepository(connection, account),
    claims: (account: number) => emailClaimRepository(connection, account),
    tracks: (account: number) => trackRepository(connection, account),
    deals: (account: number) => dealRepository(connection, account),
    notes: (account: number) => noteRepository(connection, account),
    tasks: (account: number) => taskRepository(connection, account),
    events: (account: number) => eventRepository(connection, account),
  };
}
