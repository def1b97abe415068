import { xmlRoot } from '@lib/routing';
import { pathId, text, z } from '@lib/validation';
import { contactIdList, idList } from '../contacts/contact-links';
import { idField } from '../input/fields';
import { PAGE_MAX } from '../http/page-budget';
import { wholeListQueryUpTo } from '../paging';

const subject = text({ max: 1000 });
export const NOTE_DESCRIPTION_MAX = 10_000;
const description = text({ max: NOTE_DESCRIPTION_MAX });
/** Shown in responses; accepted back (so a fetched note can be sent unchanged) and ignored. */
const readOnly = z.unknown().optional();

const relations = {
  contact_ids: contactIdList.optional(),
  contacts: contactIdList.optional().meta({ description: 'Same as contact_ids (the name responses use); send one of the two' }),
  deal_ids: idList('deals').optional(),
  owner_id: idField.optional().meta({ description: 'A user of the account; default the caller on creation' }),
  created_time: readOnly,
  updated_time: readOnly,
  entity_type: readOnly,
  count: readOnly,
  cursor: readOnly,
};

/** N1 and the deal-notes call: a new note. */
export const noteInput = xmlRoot(z.strictObject({ id: idField.optional(), subject, description, ...relations }), 'note');
export type NoteInput = z.output<typeof noteInput>;

/** PUT /dev/api/notes: the sent fields replace the stored ones. */
export const noteUpdateInput = z.strictObject({ id: idField, subject: subject.optional(), description: description.optional(), ...relations });
export type NoteUpdateInput = z.output<typeof noteUpdateInput>;

/** N2 (form call): `note` is JSON-object text with subject and description (a JSON body may send the object). */
export const noteByEmailForm = z.strictObject({
  email: z.string().min(1, 'is required').max(254),
  note: z.preprocess(
    (value) => {
      if (typeof value !== 'string') return value;
      try {
        return JSON.parse(value);
      } catch {
        return value; // fails the object check with a clear message
      }
    },
    z.strictObject({ subject, description }, 'must be JSON object text with subject and description'),
  ),
});

export const contactNotesParams = z.strictObject({ contact_id: pathId });
export const contactNoteParams = z.strictObject({ contact_id: pathId, note_id: pathId });
export const dealNotesParams = z.strictObject({ id: pathId });
export const wholeListQuery = wholeListQueryUpTo(PAGE_MAX.notes);
