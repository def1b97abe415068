import { MAX_LINKS, MAX_RELATED_CONTACTS } from '../contacts/contact-links';
import { readBatchFor, SENT_BYTES_PER_CHAR, STORED_BYTES_PER_CHAR, type ListReading } from '../http/page-budget';
import { listNames, type ListAnswer } from '../http/page-reply';
import type { DocumentDoc } from './document.model';
import { documentListOutput } from './document.outputs';
import { DOCUMENT_EXTENSION_MAX, DOCUMENT_NAME_MAX, DOCUMENT_URL_MAX } from './document.schemas';
import { documentView, type DocumentView } from './document.view';

const TEXT = DOCUMENT_NAME_MAX + DOCUMENT_URL_MAX + DOCUMENT_EXTENSION_MAX;
const IDS = MAX_RELATED_CONTACTS + MAX_LINKS;

/** A document at its bounds: its text and its contact and deal ids. */
export const DOCUMENT_WORST_BYTES = {
  sent: SENT_BYTES_PER_CHAR * TEXT + IDS * 40 + 1024,
  stored: STORED_BYTES_PER_CHAR * TEXT + IDS * 16 + 1024,
} as const;

/** A contact's documents: ids only, so presenting loads nothing. */
export const DOCUMENT_PAGE: ListAnswer<DocumentDoc, undefined, DocumentView> = {
  reading: { readBatch: readBatchFor(DOCUMENT_WORST_BYTES.stored) } satisfies ListReading<DocumentDoc>,
  view: (docs) => docs.map(documentView),
  xml: listNames(documentListOutput),
};
