import { MAX_LINKS, MAX_RELATED_CONTACTS } from '../contacts/contact-links';
import { readBatchFor, SENT_BYTES_PER_CHAR, STORED_BYTES_PER_CHAR, type ListReading } from '../http/page-budget';
import { listNames, type ListAnswer } from '../http/page-reply';
import type { NoteDoc } from './note.model';
import { noteListOutput } from './note.outputs';
import { noteView, type NoteView } from './note.view';
import { NOTE_DESCRIPTION_MAX, NOTE_SUBJECT_MAX } from './note.schemas';

const TEXT = NOTE_SUBJECT_MAX + NOTE_DESCRIPTION_MAX;
const IDS = MAX_RELATED_CONTACTS + MAX_LINKS;

/** A note at its bounds: its text, and its contact and deal ids (as id strings when sent). */
export const NOTE_WORST_BYTES = {
  sent: SENT_BYTES_PER_CHAR * TEXT + IDS * 40 + 1024,
  stored: STORED_BYTES_PER_CHAR * TEXT + IDS * 16 + 1024,
} as const;

/** Note lists (N3, a deal's notes): a note shows ids only, so presenting loads nothing. */
export const NOTE_READING: ListReading<NoteDoc> = { readBatch: readBatchFor(NOTE_WORST_BYTES.stored) };

/** How a note list answers its page: notes as they are. */
export const NOTE_PAGE: ListAnswer<NoteDoc, undefined, NoteView> = { reading: NOTE_READING, view: (docs) => docs.map(noteView), xml: listNames(noteListOutput) };
