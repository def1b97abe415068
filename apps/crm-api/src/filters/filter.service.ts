import type { Connection } from 'mongoose';
import { contactModel, type ContactDoc } from '../contacts/contact.model';
import { dealModel, type DealDoc } from '../deals/deal.model';
import type { CrmPager, Page, SortedPageParams } from '../paging';
import { filterQuery } from './filter-rules';
import type { FilterJson } from './filter.schemas';

/**
 * Dynamic filters: the rules become one database filter within the account and its contact type,
 * paged like the lists (keyset on the sort's index; the rules filter what that index walk finds).
 * The cursor is bound to the filter as sent, so it cannot be replayed on another filter.
 */
export function filterService(connection: Connection, pager: CrmPager) {
  const Contact = contactModel(connection);
  const Deal = dealModel(connection);
  const scope = (account: number, filter: FilterJson) => `filter:${account}:${JSON.stringify(filter)}`;

  return {
    contacts: (account: number, filter: FilterJson, params: SortedPageParams): Promise<Page<ContactDoc>> =>
      pager.sorted(Contact, { account, ...filterQuery(filter) }, params, scope(account, filter)),

    deals: (account: number, filter: FilterJson, params: SortedPageParams): Promise<Page<DealDoc>> =>
      pager.sorted(Deal, { account, ...filterQuery(filter) }, params, scope(account, filter)),
  };
}

export type FilterService = ReturnType<typeof filterService>;
