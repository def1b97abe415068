import type { z } from '@lib/validation';
import type { DocumentDoc } from './document.model';
import type { documentOutput } from './document.outputs';

/** The wire shape of a document (JSON and XML): related contacts and deals as id strings. */
export function documentView(doc: DocumentDoc): z.input<typeof documentOutput> {
  return {
    id: doc._id,
    name: doc.name,
    url: doc.url,
    doc_type: doc.doc_type,
    network_type: doc.network_type,
    ...(doc.extension !== undefined && { extension: doc.extension }),
    ...(doc.size !== undefined && { size: doc.size }),
    contact_ids: doc.contacts.map(String),
    deal_ids: doc.deals.map(String),
    owner_id: doc.owner,
    uploaded_time: doc.uploaded_time,
    updated_time: doc.updated_time,
    entity_type: 'document' as const,
  };
}

export type DocumentView = ReturnType<typeof documentView>;
