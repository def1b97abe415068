import { pathId, queryInt, z } from '@lib/validation';
import { accessTokenField } from '../auth/access-token';
import { ROLES } from './user.model';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const DEFAULT_PAGE = 20;
/** What clients of paged APIs ask for (up to 200); a page of 200 at the stored bounds is under 2 MB, well inside the 8 MiB page budget. */
export const MAX_PAGE = 200;

const email = z
  .string()
  .trim()
  .max(254, 'must be at most 254 characters')
  .pipe(z.email('must be an email address such as ana@example.com'))
  .transform((value) => value.toLowerCase())
  .meta({ example: 'ana@example.com' });

/** 8-128 characters with at least one letter and one character that is not a letter. */
const password = z
  .string()
  .min(PASSWORD_MIN, `is too weak: use at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `must be at most ${PASSWORD_MAX} characters`)
  .refine((value) => /\p{L}/u.test(value) && /[^\p{L}]/u.test(value), 'is too weak: mix letters with digits or symbols')
  .meta({ example: 'correct-horse-42' });

export const createUserBody = z.strictObject({
  email,
  password,
  role: z.enum(ROLES).optional().meta({ description: 'Default user; only the master key holder creates users, admins included' }),
  ...accessTokenField,
});

export const authBody = z.strictObject({ ...accessTokenField });

export const tokenOnlyQuery = z.strictObject({ ...accessTokenField });

export const idParams = z.strictObject({ id: pathId });

export const listUsersQuery = z.strictObject({
  limit: queryInt({ min: 1, max: MAX_PAGE, description: `Page size (default ${DEFAULT_PAGE}, at most ${MAX_PAGE})` }).default(DEFAULT_PAGE),
  cursor: z.string().max(1024).optional().meta({ description: 'next_cursor of the previous page' }),
  ...accessTokenField,
});

export const userOutput = z.strictObject({
  id: z.number().int(),
  email: z.string(),
  role: z.enum(ROLES),
  createdAt: z.string().meta({ description: 'ISO 8601, UTC', example: '2026-11-21T14:03:07.000Z' }),
}).meta({ id: 'User' });

export const userPage = z.strictObject({
  total: z.number().int().meta({ description: 'Number of all users' }),
  data: z.array(userOutput),
  has_more: z.boolean(),
  next_cursor: z.string().optional(),
});

export const authResult = z.strictObject({
  token: z.string().meta({ description: 'JWT (HS256); send it as Authorization: Bearer <token>' }),
  user: userOutput,
});
