import type { DomainUserDoc } from '../accounts/domain-user.model';
import { readBatchFor, SENT_BYTES_PER_CHAR, STORED_BYTES_PER_CHAR, type ListReading } from '../http/page-budget';
import { listNames, type ListAnswer } from '../http/page-reply';
import { MAX_PROPERTIES, PROPERTY_TEXT_MAX, TAG_LENGTH_MAX, TAG_MAX, WIDGET_PROPERTIES_MAX } from './contact-rules';
import type { ContactDoc } from './contact.model';
import { contactListOutput } from './contact.outputs';
import { contactViews } from './contact.presenter';
import type { ContactView } from './contact.view';

/** The text a contact holds at most: property names, subtypes and values, and widget_properties. */
const TEXT = PROPERTY_TEXT_MAX + WIDGET_PROPERTIES_MAX;

/**
 * A contact at its bounds. As sent: its text at the most bytes a character takes, the markup of its
 * properties, its tags twice (the list and `tags_with_time_json`), its owner and numbers. As stored:
 * its text, the email values again (`emails`), tag names with their times.
 */
export const CONTACT_WORST_BYTES = {
  sent: SENT_BYTES_PER_CHAR * TEXT + MAX_PROPERTIES * 100 + 2 * TAG_MAX * (TAG_LENGTH_MAX + 25) + 8 * 1024,
  stored: STORED_BYTES_PER_CHAR * (TEXT + PROPERTY_TEXT_MAX) + MAX_PROPERTIES * 50 + TAG_MAX * (TAG_LENGTH_MAX + 20) + 4 * 1024,
} as const;

/** Contact lists (C1, companies, a company's persons, search, dynamic filters): presenting loads only owners. */
export const CONTACT_READING: ListReading<ContactDoc> = { readBatch: readBatchFor(CONTACT_WORST_BYTES.stored) };

/** How a contact list answers its page: each contact shown with its owner. */
export const CONTACT_PAGE: ListAnswer<ContactDoc, DomainUserDoc[], ContactView> = { reading: CONTACT_READING, view: contactViews, xml: listNames(contactListOutput) };

/** Bytes presenting a record loads for `related` contacts shown in full. */
export const relatedContactsBytes = (related: number) => related * CONTACT_WORST_BYTES.sent;
