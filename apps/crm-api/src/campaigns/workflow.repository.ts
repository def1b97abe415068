import type { Page, PageParams } from '../paging';
import type { AccountScope } from '../store/account-scope';
import type { StepDoc, WorkflowDoc } from './campaign.model';

/** The workflows (campaigns) of one account. */
export function workflowRepository(scope: AccountScope<WorkflowDoc>) {
  return {
    get: (id: number) => scope.get(id),
    insert: (fields: Omit<WorkflowDoc, '_id' | 'account'>) => scope.insert((id) => ({ _id: id, ...fields })),
    count: () => scope.count(),
    /** A page of the account's workflows in creation order. */
    list: (params: PageParams): Promise<Page<WorkflowDoc>> => scope.page('all', {}, params),
    /** Renames and replaces the steps; the workflow after, or null when there is none. */
    update: (id: number, changes: { name: string; steps: StepDoc[]; updated_time: number }) => scope.findOneAndUpdate({ _id: id }, { $set: changes }, 'after'),
    remove: (id: number) => scope.takeOne({ _id: id }),
    /** User removal: the workflows a user made go to another user. */
    countMadeBy: (user: number) => scope.count({ creator: user }),
    giveTo: (from: number, to: number) => scope.updateMany({ creator: from }, { $set: { creator: to } }),
  };
}

export type WorkflowRepository = ReturnType<typeof workflowRepository>;
