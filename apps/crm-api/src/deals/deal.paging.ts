import { MAX_RELATED_CONTACTS } from '../contacts/contact-links';
import { CONTACT_WORST_BYTES, relatedContactsBytes } from '../contacts/contact.paging';
import { readBatchFor, SENT_BYTES_PER_CHAR, STORED_BYTES_PER_CHAR, type ListReading } from '../http/page-budget';
import { listNames, type ListAnswer } from '../http/page-reply';
import { MAX_MILESTONE_LENGTH } from '../tracks/milestones';
import { TRACK_NAME_MAX } from '../tracks/track.schemas';
import type { DealDoc } from './deal.model';
import { dealPageOutput } from './deal.outputs';
import { DEAL_NOTES_SHOWN, dealViews, type DealRelated } from './deal.presenter';
import type { DealView } from './deal.view';
import { CUSTOM_TEXT_MAX, DEAL_DESCRIPTION_MAX, DEAL_NAME_MAX, MAX_CUSTOM_DATA } from './deal.schemas';

/** The text a deal holds at most: its name, description, custom data and milestone. */
const TEXT = DEAL_NAME_MAX + DEAL_DESCRIPTION_MAX + CUSTOM_TEXT_MAX + MAX_MILESTONE_LENGTH;

/**
 * A deal at its bounds without its related contacts. As sent: its text and its track's name, the
 * markup of its custom data, its note and contact ids, its owner. As stored: its text and ids.
 */
const OWN_WORST_BYTES = {
  sent: SENT_BYTES_PER_CHAR * (TEXT + TRACK_NAME_MAX) + MAX_CUSTOM_DATA * 60 + (DEAL_NOTES_SHOWN + MAX_RELATED_CONTACTS) * 40 + 8 * 1024,
  stored: STORED_BYTES_PER_CHAR * TEXT + MAX_CUSTOM_DATA * 40 + MAX_RELATED_CONTACTS * 16 + 1024,
} as const;

/** A deal at its bounds as sent, with its related contacts in full (its worst as an item of a page). */
export const DEAL_WORST_BYTES = { sent: OWN_WORST_BYTES.sent + MAX_RELATED_CONTACTS * CONTACT_WORST_BYTES.sent, stored: OWN_WORST_BYTES.stored } as const;

/** Deal lists (D1, D10–D12, dynamic filters) and D8/D9: presenting a deal loads its contacts. */
export const DEAL_READING: ListReading<DealDoc> = {
  readBatch: readBatchFor(OWN_WORST_BYTES.stored),
  loads: (deal) => relatedContactsBytes(deal.contact_ids.length),
};

/** How a deal list answers its page: each deal shown with its contacts, owners, track name and note ids. */
export const DEAL_PAGE: ListAnswer<DealDoc, DealRelated, DealView> = { reading: DEAL_READING, view: dealViews, xml: listNames(dealPageOutput) };
