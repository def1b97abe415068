import type { ContactPage, ContactService } from '../contacts/contact.service';
import type { DealPage, DealService } from '../deals/deal.service';
import type { SortedPageParams } from '../paging';
import type { AccountStore } from '../store/crm-store';
import { searchableLabels } from '../custom-fields/custom-values';
import { filterQuery } from './filter-rules';
import type { FilterJson } from './filter.schemas';

/**
 * Dynamic filters: the rules become one database filter within the account and its contact type,
 * paged like the lists (keyset on the sort's index; the rules filter what that index walk finds).
 * The cursor is bound to the filter as sent, so it cannot be replayed on another filter.
 */
export function filterService(contacts: ContactService, deals: DealService) {
  return {
    contacts: async (store: AccountStore, filter: FilterJson, params: SortedPageParams): Promise<ContactPage> =>
      contacts.shownPage(store, await store.contacts.filtered(filterQuery(filter), params, JSON.stringify(filter))),

    deals: async (store: AccountStore, filter: FilterJson, params: SortedPageParams): Promise<DealPage> =>
      deals.shownPage(store, await store.deals.filtered(filterQuery(filter, undefined, await searchableLabels(store, 'DEAL')), params, JSON.stringify(filter))),
  };
}

export type FilterService = ReturnType<typeof filterService>;
