import { xmlRoot } from '@lib/routing';
import { formArray, pathId, text, z } from '@lib/validation';
import { contactIdList, idList } from '../contacts/contact-links';
import { idField } from '../input/fields';
import { wholeListQuery as wholeList } from '../paging';

export const NOTE_SUBJECT_MAX = 1_000;
/** A note's text (64 Ki characters: call notes, minutes); a subject is a title. */
export const NOTE_DESCRIPTION_MAX = 65_536;
const subject = text({ max: NOTE_SUBJECT_MAX });
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

/** notes/bulk: the form field `ids`, JSON-array text of note ids (or a JSON body `{"ids": [...]}`). */
export const NOTES_BULK_MAX = 1000;
export const notesBulkForm = z.strictObject({
  ids: formArray(idField).pipe(z.array(z.number()).min(1, 'must list at least one note id').max(NOTES_BULK_MAX, `at most ${NOTES_BULK_MAX} ids`)),
});

export const contactNotesParams = z.strictObject({ contact_id: pathId });
export const contactNoteParams = z.strictObject({ contact_id: pathId, note_id: pathId });
export const dealNotesParams = z.strictObject({ id: pathId });
export const wholeListQuery = wholeList;
