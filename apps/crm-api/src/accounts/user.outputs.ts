import { z } from '@lib/validation';

export const userOutput = z.strictObject({
  id: z.number().int(),
  domain: z.string(),
  email: z.string(),
  is_admin: z.boolean(),
  is_account_owner: z.boolean(),
  is_disabled: z.boolean(),
  name: z.string(),
  password: z.string().meta({ description: 'Always a masked placeholder' }),
  info_json_string: z.string(),
  hashedString: z.string(),
}).meta({ id: 'User' });
