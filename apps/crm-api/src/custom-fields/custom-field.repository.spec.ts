import type { AccountScope } from '../store/account-scope';
import type { CustomFieldDoc } from './custom-field.model';
import { customFieldRepository } from './custom-field.repository';
import type { DefinitionCache } from './definition-cache';

/** A write whose answer the database never gave (a timeout, a dropped connection) may still have been stored. */
const lost = () => Promise.reject(new Error('connection closed before the answer'));

describe('customFieldRepository: which writes make the cached definitions forgotten', () => {
  function setup(scope: Partial<AccountScope<CustomFieldDoc>>) {
    const definitions: DefinitionCache = { of: jest.fn(), revoke: jest.fn(async () => undefined) };
    return { definitions, repository: customFieldRepository(scope as AccountScope<CustomFieldDoc>, { definitions, account: 7 }) };
  }

  it('every write, also one that failed, since the database may have stored it', async () => {
    const { definitions, repository } = setup({ insert: lost, findOneAndUpdate: lost, takeOne: lost, updateOne: lost } as never);
    await expect(repository.insert({} as never)).rejects.toThrow('connection closed');
    await expect(repository.replace(1, {})).rejects.toThrow('connection closed');
    await expect(repository.remove(1)).rejects.toThrow('connection closed');
    await expect(repository.setPosition(1, 2, 3)).rejects.toThrow('connection closed');
    expect(definitions.revoke).toHaveBeenCalledTimes(4);
    expect(definitions.revoke).toHaveBeenCalledWith(7);
  });

  it('answers the write’s failure, not the revocation’s, when both fail; a stored write whose revocation fails fails', async () => {
    const { definitions, repository } = setup({ insert: lost, takeOne: async () => null } as never);
    (definitions.revoke as jest.Mock).mockRejectedValue(new Error('revocation log unavailable'));
    await expect(repository.insert({} as never)).rejects.toThrow('connection closed');
    // the other processes would not hear of it: the caller must not be told it took effect everywhere
    await expect(repository.remove(1)).rejects.toThrow('revocation log unavailable');
  });
});
