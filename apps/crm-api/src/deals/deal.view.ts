import type { z } from '@lib/validation';
import type { dealOutput } from './deal.outputs';
import type { UserView } from '../accounts/user.view';
import type { ContactView } from '../contacts/contact.view';
import type { DealDoc } from './deal.model';

export interface DealRelations {
  contacts: ContactView[];
  /** The owner's userView, made once per page for every deal it owns. */
  owner?: UserView;
  trackName?: string;
  /** Ids of the notes related to the deal, oldest first. */
  notes: number[];
}

/** The wire shape of a deal (JSON and XML); the only place that decides it. */
export function dealView(doc: DealDoc, related: DealRelations): z.input<typeof dealOutput> {
  return {
    id: doc._id,
    name: doc.name,
    description: doc.description,
    expected_value: doc.expected_value,
    pipeline_id: doc.pipeline_id,
    milestone: doc.milestone,
    probability: doc.probability,
    close_date: doc.close_date,
    created_time: doc.created_time,
    updated_time: doc.updated_time,
    /** A string, as the spec types it. */
    owner_id: String(doc.owner_id),
    /** The ids of `contacts` (so a fetched deal can be sent back), as strings like `owner_id`. */
    contact_ids: related.contacts.map((contact) => String(contact.id)),
    contacts: related.contacts,
    custom_data: doc.custom_data.map(({ name, value }) => ({ name, value })),
    deal_source_id: doc.deal_source_id ?? 0,
    /** The spec's `notes (list)`: ids of the related notes, as strings like a task's `notes`. */
    notes: related.notes.map(String),
    entity_type: 'deal' as const,
    ...(related.trackName !== undefined && { track: related.trackName }),
    ...(related.owner && { owner: related.owner }),
  };
}

export type DealView = ReturnType<typeof dealView>;
