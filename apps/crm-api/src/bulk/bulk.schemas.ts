import { formArray, queryEnum, queryInt, z } from '@lib/validation';
import { TAG_MAX, tagName } from '../contacts/contact-rules';
import { idField } from '../fields';

/** Contacts per bulk call: each costs a few writes (a delete cleans up notes, tasks, events and deals). */
export const MAX_BULK_IDS = 100;

export const BULK_ACTIONS = ['ADD_TAG', 'REMOVE_TAG', 'DELETE', 'CHANGE_OWNER'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

export const bulkQuery = z.strictObject({
  action_type: queryEnum(BULK_ACTIONS).meta({ description: 'ADD_TAG, REMOVE_TAG (data: the tags), DELETE, or CHANGE_OWNER (owner: the new owner)' }),
  owner: queryInt({ min: 1, max: Number.MAX_SAFE_INTEGER, description: 'CHANGE_OWNER only: id of a user of the account' }).optional(),
});

/** Form fields as the Node client writes them: `contact_ids` and `data` as JSON-array text. */
export const bulkForm = z.strictObject({
  contact_ids: formArray(idField).pipe(z.array(z.number()).min(1, 'must list at least one contact').max(MAX_BULK_IDS, `at most ${MAX_BULK_IDS} contacts`)),
  data: formArray(tagName)
    .pipe(z.array(z.string()).min(1, 'must list at least one tag').max(TAG_MAX, `at most ${TAG_MAX} tags`))
    .optional()
    .meta({ description: 'ADD_TAG and REMOVE_TAG only: the tags' }),
});
export type BulkForm = z.output<typeof bulkForm>;
