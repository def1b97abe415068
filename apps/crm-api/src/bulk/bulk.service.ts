import { validationFailed } from '@lib/errors';
import type { ContactService } from '../contacts/contact.service';
import type { AccountStore } from '../store/crm-store';
import type { BulkAction, BulkForm } from './bulk.schemas';

/**
 * POST /dev/api/bulk/update: one action on the listed contacts of the caller's account. Ids of no
 * contact of the account are ignored (another account's ids behave like missing ones); every check
 * runs before the first write, so a refused call changes nothing.
 */
export function bulkService(contacts: ContactService) {
  return {
    async run(store: AccountStore, action: BulkAction, form: BulkForm, owner?: number): Promise<void> {
      const tags = form.data;
      const takesTags = action === 'ADD_TAG' || action === 'REMOVE_TAG';
      if (takesTags && !tags) throw validationFailed([{ field: 'data', message: `is required for ${action}: the tags, as a JSON array (or tags)` }]);
      if (!takesTags && tags) throw validationFailed([{ field: form.tagsField, message: `is not used by ${action}` }]);
      if (action === 'CHANGE_OWNER' && owner === undefined) throw validationFailed([{ field: 'owner', message: 'is required for CHANGE_OWNER: the id of the new owner' }]);
      if (action !== 'CHANGE_OWNER' && owner !== undefined) throw validationFailed([{ field: 'owner', message: `is not used by ${action}` }]);
      const newOwner = owner === undefined ? undefined : ((await store.users.get(owner)) ?? undefined);
      if (owner !== undefined && !newOwner) throw validationFailed([{ field: 'owner', message: `names no user of this account (${owner})` }]);

      const found = await contacts.kindsOf(store, form.contact_ids);
      const ids = found.map((c) => c._id);
      if (takesTags) {
        const companies = found.filter((c) => c.type === 'COMPANY').map((c) => c._id);
        if (companies.length) throw validationFailed([{ field: 'contact_ids', message: `companies take no tags (${companies.slice(0, 10).join(', ')})` }]);
      }
      if (takesTags && tags) return contacts.changeTagsOf(store, ids, tags, action === 'ADD_TAG' ? 'add' : 'remove');
      if (action === 'CHANGE_OWNER' && newOwner) return contacts.changeOwnerOf(store, ids, newOwner);
      if (action === 'DELETE') for (const id of ids) await contacts.remove(store, id);
    },
  };
}

export type BulkService = ReturnType<typeof bulkService>;
