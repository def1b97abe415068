import { driverCollection, inTransaction, revocationLog } from '@lib/mongo';
import { collectionSource, modelSource, type PageSource } from '@lib/paging';
import type { Connection, Model } from 'mongoose';
import { accountModel } from '../accounts/account.model';
import { domainUserModel, type DomainUserDoc } from '../accounts/domain-user.model';
import { credentialCache } from './credential-caches';
import { userRepository, type UserRepository } from '../accounts/user.repository';
import { contactModel, emailClaimModel, type ContactDoc } from '../contacts/contact.model';
import { contactRepository, type ContactRepository } from '../contacts/contact.repository';
import { contactSlotRepository, type ContactSlotRepository } from '../contacts/contact-slot.repository';
import { emailClaimRepository, type EmailClaimRepository } from '../contacts/email-claim.repository';
import { dealModel, type DealDoc } from '../deals/deal.model';
import { dealRepository, type DealRepository } from '../deals/deal.repository';
import { eventModel, type EventDoc } from '../events/event.model';
import { eventRepository, type EventRepository } from '../events/event.repository';
import { noteModel, type NoteDoc } from '../notes/note.model';
import { noteRepository, type NoteRepository } from '../notes/note.repository';
import type { CrmPager } from '../paging';
import { categoryModel, type CategoryDoc } from '../categories/category.model';
import { categoryRepository, type CategoryRepository } from '../categories/category.repository';
import { customFieldModel, type CustomFieldDoc } from '../custom-fields/custom-field.model';
import { customFieldRepository, type CustomFieldRepository } from '../custom-fields/custom-field.repository';
import { definitionCache } from '../custom-fields/definition-cache';
import { documentModel, type DocumentDoc } from '../documents/document.model';
import { documentRepository, type DocumentRepository } from '../documents/document.repository';
import { ticketGroupModel, ticketModel, ticketNoteModel, type TicketDoc, type TicketGroupDoc, type TicketNoteDoc } from '../tickets/ticket.model';
import { ticketGroupRepository, ticketNoteRepository, ticketRepository, type TicketGroupRepository, type TicketNoteRepository, type TicketRepository } from '../tickets/ticket.repository';
import { enrolmentModel, workflowModel, type EnrolmentDoc, type WorkflowDoc } from '../campaigns/campaign.model';
import { enrolmentRepository, type EnrolmentRepository } from '../campaigns/enrolment.repository';
import { workflowRepository, type WorkflowRepository } from '../campaigns/workflow.repository';
import { taskModel, type TaskDoc } from '../tasks/task.model';
import { taskRepository, type TaskRepository } from '../tasks/task.repository';
import { trackModel, type TrackDoc } from '../tracks/track.model';
import { trackRepository, type TrackRepository } from '../tracks/track.repository';
import { deliveryModel, eventSequenceModel } from '../webhooks/webhook-delivery.model';
import { webhookModel, type WebhookDoc } from '../webhooks/webhook.model';
import { webhookRepository, type WebhookRepository } from '../webhooks/webhook.repository';
import type { AccountId } from './account-id';
import { accountOutbox, type AccountOutbox } from './account-outbox';
import { accountDocument } from './account-document';
import { accountScope, type AccountRecord, type ModelAccess } from './account-scope';
import { keyedScope } from './keyed-scope';

/** Every model of the service, registered on the connection once, so that the start-up makes each collection and its indexes before the first request. */
const MODELS = { accounts: accountModel, users: domainUserModel, contacts: contactModel, claims: emailClaimModel, tracks: trackModel, deals: dealModel, notes: noteModel, tasks: taskModel, events: eventModel, customFields: customFieldModel, categories: categoryModel, documents: documentModel, tickets: ticketModel, ticketGroups: ticketGroupModel, ticketNotes: ticketNoteModel, webhooks: webhookModel, deliveries: deliveryModel, eventSequences: eventSequenceModel, workflows: workflowModel, enrolments: enrolmentModel };

/**
 * The tenant data of one account: its repositories, each bound to the account. The only door to
 * tenant data: services receive one of these (`ctx.store`, made once per request by the auth
 * scheme), never a bare account number or a connection.
 */
export interface AccountStore {
  readonly account: AccountId;
  readonly users: UserRepository;
  readonly contacts: ContactRepository;
  /** The person emails claimed in the account (contacts/email-claims.ts). */
  readonly claims: EmailClaimRepository;
  /** The account's contact count and slot reservations (contacts/contact-slots.ts). */
  readonly slots: ContactSlotRepository;
  readonly tracks: TrackRepository;
  readonly deals: DealRepository;
  readonly notes: NoteRepository;
  readonly tasks: TaskRepository;
  readonly events: EventRepository;
  readonly customFields: CustomFieldRepository;
  /** Deal sources and the other kinds of category. */
  readonly categories: CategoryRepository;
  /** Documents: links to files with their metadata (documents/). */
  readonly documents: DocumentRepository;
  /** The help desk (tickets/): tickets, their groups and their notes. */
  readonly tickets: TicketRepository;
  readonly ticketGroups: TicketGroupRepository;
  readonly ticketNotes: TicketNoteRepository;
  /** The account's webhooks (webhooks/). */
  readonly webhooks: WebhookRepository;
  /** The account's webhook deliveries and its records' event numbers (account-outbox.ts). */
  readonly outbox: AccountOutbox;
  /** The account's campaigns (workflows) and their enrolments (campaigns/). */
  readonly workflows: WorkflowRepository;
  readonly enrolments: EnrolmentRepository;
  /**
   * Runs `work` in one MongoDB transaction (libs/mongo transaction.ts): every write it makes
   * through this store is stored with the others or not at all. `work` may run more than once.
   */
  transaction<T>(work: () => Promise<T>): Promise<T>;
}

function access<T extends AccountRecord>(model: Model<T>): ModelAccess<T> {
  const driver = driverCollection(model);
  return { model, driver, lean: modelSource(model), raw: collectionSource(driver) as unknown as PageSource<T>, collectionName: model.collection.collectionName };
}

/** What the stores of one database are made of, made once. */
function partsOf(connection: Connection, pager: CrmPager) {
  const models = Object.fromEntries(Object.entries(MODELS).map(([name, model]) => [name, model(connection)])) as { [K in keyof typeof MODELS]: ReturnType<(typeof MODELS)[K]> };
  return {
    pager,
    users: access<DomainUserDoc>(models.users),
    contacts: access<ContactDoc>(models.contacts),
    tracks: access<TrackDoc>(models.tracks),
    deals: access<DealDoc>(models.deals),
    notes: access<NoteDoc>(models.notes),
    tasks: access<TaskDoc>(models.tasks),
    events: access<EventDoc>(models.events),
    customFields: access<CustomFieldDoc>(models.customFields),
    definitions: definitionCache(revocationLog(connection)),
    knownUsers: credentialCache(connection),
    categories: access<CategoryDoc>(models.categories),
    documents: access<DocumentDoc>(models.documents),
    tickets: access<TicketDoc>(models.tickets),
    ticketGroups: access<TicketGroupDoc>(models.ticketGroups),
    ticketNotes: access<TicketNoteDoc>(models.ticketNotes),
    workflows: access<WorkflowDoc>(models.workflows),
    enrolments: access<EnrolmentDoc>(models.enrolments),
    webhooks: access<WebhookDoc>(models.webhooks),
    deliveries: driverCollection(models.deliveries),
    eventSequences: models.eventSequences,
    connection,
    claims: { model: models.claims, driver: driverCollection(models.claims) },
    accounts: driverCollection(models.accounts),
  };
}

type Parts = ReturnType<typeof partsOf>;

/**
 * One account's store, made per request: each repository is built on first use and kept, so a
 * request builds only those it uses. What it is made of is private (`#parts`): nothing reaches a
 * model through it.
 */
class AccountData implements AccountStore {
  readonly #parts: Parts;
  #users?: UserRepository;
  #contacts?: ContactRepository;
  #claims?: EmailClaimRepository;
  #slots?: ContactSlotRepository;
  #tracks?: TrackRepository;
  #deals?: DealRepository;
  #notes?: NoteRepository;
  #tasks?: TaskRepository;
  #events?: EventRepository;
  #customFields?: CustomFieldRepository;
  #categories?: CategoryRepository;
  #documents?: DocumentRepository;
  #tickets?: TicketRepository;
  #ticketGroups?: TicketGroupRepository;
  #ticketNotes?: TicketNoteRepository;
  #webhooks?: WebhookRepository;
  #outbox?: AccountOutbox;
  #workflows?: WorkflowRepository;
  #enrolments?: EnrolmentRepository;

  constructor(
    readonly account: AccountId,
    parts: Parts,
  ) {
    this.#parts = parts;
  }

  #scope<T extends AccountRecord>(records: ModelAccess<T>) {
    return accountScope(records, this.account, this.#parts.pager);
  }

  get users() {
    return (this.#users ??= userRepository(this.#scope(this.#parts.users), { users: this.#parts.knownUsers, account: this.account }));
  }
  get contacts() {
    return (this.#contacts ??= contactRepository(this.#scope(this.#parts.contacts)));
  }
  get claims() {
    return (this.#claims ??= emailClaimRepository(keyedScope(this.#parts.claims.model, this.#parts.claims.driver, this.account)));
  }
  get slots() {
    return (this.#slots ??= contactSlotRepository(accountDocument(this.#parts.accounts, this.account)));
  }
  get tracks() {
    return (this.#tracks ??= trackRepository(this.#scope(this.#parts.tracks)));
  }
  get deals() {
    return (this.#deals ??= dealRepository(this.#scope(this.#parts.deals)));
  }
  get notes() {
    return (this.#notes ??= noteRepository(this.#scope(this.#parts.notes)));
  }
  get tasks() {
    return (this.#tasks ??= taskRepository(this.#scope(this.#parts.tasks)));
  }
  get events() {
    return (this.#events ??= eventRepository(this.#scope(this.#parts.events)));
  }
  get webhooks() {
    return (this.#webhooks ??= webhookRepository(this.#scope(this.#parts.webhooks)));
  }
  get outbox() {
    return (this.#outbox ??= accountOutbox(this.#parts.deliveries, this.#parts.eventSequences, this.account));
  }
  transaction<T>(work: () => Promise<T>): Promise<T> {
    return inTransaction(this.#parts.connection, work);
  }
  get customFields() {
    return (this.#customFields ??= customFieldRepository(this.#scope(this.#parts.customFields), { definitions: this.#parts.definitions, account: this.account }));
  }
  get categories() {
    return (this.#categories ??= categoryRepository(this.#scope(this.#parts.categories)));
  }
  get documents() {
    return (this.#documents ??= documentRepository(this.#scope(this.#parts.documents)));
  }
  get tickets() {
    return (this.#tickets ??= ticketRepository(this.#scope(this.#parts.tickets)));
  }
  get ticketGroups() {
    return (this.#ticketGroups ??= ticketGroupRepository(this.#scope(this.#parts.ticketGroups)));
  }
  get ticketNotes() {
    return (this.#ticketNotes ??= ticketNoteRepository(this.#scope(this.#parts.ticketNotes)));
  }
  get workflows() {
    return (this.#workflows ??= workflowRepository(this.#scope(this.#parts.workflows)));
  }
  get enrolments() {
    return (this.#enrolments ??= enrolmentRepository(this.#scope(this.#parts.enrolments)));
  }
}

/** The account-bound stores of one database: `of(account)` is the store of one account. */
export function crmStore(connection: Connection, pager: CrmPager) {
  const parts = partsOf(connection, pager);
  return { of: (account: AccountId): AccountStore => new AccountData(account, parts) };
}

export type CrmStore = ReturnType<typeof crmStore>;
