import type { ContactDoc } from '../contacts/contact.model';
import type { ContactRepository } from '../contacts/contact.repository';
import type { DealDoc } from '../deals/deal.model';
import type { DealRepository } from '../deals/deal.repository';
import type { CrmPager, Page, SortedPageParams } from '../paging';
import type { ForAccount } from '../store/account-scope';
import { filterQuery } from './filter-rules';
import type { FilterJson } from './filter.schemas';

/**
 * Dynamic filters: the rules become one database filter within the account and its contact type,
 * paged like the lists (keyset on the sort's index; the rules filter what that index walk finds).
 * The cursor is bound to the filter as sent, so it cannot be replayed on another filter.
 */
export function filterService(repositories: { contacts: ForAccount<ContactRepository>; deals: ForAccount<DealRepository> }, pager: CrmPager) {
  return {
    contacts: (account: number, filter: FilterJson, params: SortedPageParams): Promise<Page<ContactDoc>> =>
      repositories.contacts(account).filtered(pager, filterQuery(filter), params, JSON.stringify(filter)),

    deals: (account: number, filter: FilterJson, params: SortedPageParams): Promise<Page<DealDoc>> =>
      repositories.deals(account).filtered(pager, filterQuery(filter), params, JSON.stringify(filter)),
  };
}

export type FilterService = ReturnType<typeof filterService>;
