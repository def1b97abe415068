import { formArray, queryEnum, queryInt, z } from '@lib/validation';
import { TAG_MAX, tagName } from '../contacts/contact-rules';
import { idField } from '../input/fields';

/** Contacts per bulk call: each costs a few writes (a delete cleans up notes, tasks, events and deals). */
export const MAX_BULK_IDS = 100;

export const BULK_ACTIONS = ['ADD_TAG', 'REMOVE_TAG', 'DELETE', 'CHANGE_OWNER'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

export const bulkQuery = z.strictObject({
  action_type: queryEnum(BULK_ACTIONS).meta({ description: 'ADD_TAG, REMOVE_TAG (data: the tags), DELETE, or CHANGE_OWNER (owner: the new owner)' }),
  owner: queryInt({ min: 1, max: Number.MAX_SAFE_INTEGER, description: 'CHANGE_OWNER only: id of a user of the account' }).optional(),
});

const contactIds = formArray(idField).pipe(z.array(z.number()).min(1, 'must list at least one contact').max(MAX_BULK_IDS, `at most ${MAX_BULK_IDS} contacts`));
const tags = formArray(tagName).pipe(z.array(z.string()).min(1, 'must list at least one tag').max(TAG_MAX, `at most ${TAG_MAX} tags`));

/**
 * Form fields as the Node client writes them (`contact_ids`, `data`, JSON-array text) or as the Java
 * client does (`ids` in deleteBulkContacts, `tags` in addTagsToContacts, `[a, b]` lists): each pair
 * names one field, so a call sends one name of each, never both.
 */
export const bulkForm = z
  .strictObject({
    contact_ids: contactIds.optional(),
    ids: contactIds.optional().meta({ description: 'the same as contact_ids (the Java client sends ids); send one of the two' }),
    data: tags.optional().meta({ description: 'ADD_TAG and REMOVE_TAG only: the tags' }),
    tags: tags.optional().meta({ description: 'the same as data (the Java client sends tags); send one of the two' }),
  })
  .transform((form, ctx) => {
    if (form.contact_ids && form.ids) ctx.addIssue({ code: 'custom', path: ['ids'], message: 'is another name of contact_ids: send one of the two' });
    if (form.data && form.tags) ctx.addIssue({ code: 'custom', path: ['tags'], message: 'is another name of data: send one of the two' });
    const ids = form.contact_ids ?? form.ids;
    if (!ids) ctx.addIssue({ code: 'custom', path: ['contact_ids'], message: 'is required: the contact ids, as a JSON array (or ids)' });
    return { contact_ids: ids ?? [], data: form.data ?? form.tags, tagsField: form.tags ? ('tags' as const) : ('data' as const) };
  });
export type BulkForm = z.output<typeof bulkForm>;
