import type { z } from '@lib/validation';
import type { noteOutput } from './note.outputs';
import type { NoteDoc } from './note.model';

/** The wire shape of a note (JSON and XML): related contacts and deals as id strings. */
export function noteView(doc: NoteDoc): z.input<typeof noteOutput> {
  return {
    id: doc._id,
    created_time: doc.created_time,
    updated_time: doc.updated_time,
    subject: doc.subject,
    description: doc.description,
    contacts: doc.contacts.map(String),
    ...(doc.deals.length > 0 && { deal_ids: doc.deals.map(String) }),
    ...(doc.owner !== undefined && { owner_id: doc.owner }),
    entity_type: 'note' as const,
  };
}

export type NoteView = ReturnType<typeof noteView>;
