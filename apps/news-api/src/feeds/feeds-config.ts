import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from '@lib/validation';
import { domainName, siteDomain } from '../news/domains';
import { DEFAULT_LANGUAGE, languageCode } from '../news/language';
import defaultFeeds from './default-feeds.json';

const feedUrl = z.url({ protocol: /^https?$/, error: 'must be an http or https URL' });

const publisherSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'must be 1-40 lowercase letters, digits and hyphens'),
  name: z.string().trim().min(1).max(100),
  feeds: z.array(feedUrl).min(1).max(10),
  /** The site its articles link to (GET /sources, for the `domains` filter); default: the first feed's host without `www.`. */
  domain: z.string().refine((value) => domainName(value) === value, 'must be a host name in lower case, such as abc.net.au').optional(),
  /** ISO 639-1 code of its articles; default `en`. */
  language: z.string().refine((value) => languageCode(value) !== undefined, 'must be an ISO 639-1 language code in lower case, such as en').optional(),
});

const feedsFileSchema = z.strictObject({
  publishers: z
    .array(publisherSchema)
    .min(1)
    .max(50)
    .refine((list) => new Set(list.map((p) => p.id)).size === list.length, 'publisher ids must be unique'),
});

/** A news publisher and the RSS/Atom feeds its articles come from. */
export type Publisher = z.output<typeof publisherSchema>;

export const publisherDomain = (publisher: Publisher): string => publisher.domain ?? siteDomain(publisher.feeds[0]);
export const publisherLanguage = (publisher: Publisher): string => publisher.language ?? DEFAULT_LANGUAGE;

/** Validates a publishers file's content; the message names every bad entry. */
export function parsePublishers(content: unknown, origin: string): Publisher[] {
  const result = feedsFileSchema.safeParse(content);
  if (result.success) return result.data.publishers;
  const problems = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(file)'}: ${issue.message}`);
  throw new Error(`Invalid configuration: ${origin}:\n${problems.join('\n')}`);
}

/**
 * The publishers of the file at `path` (NEWS_FEEDS), or the shipped default list. A relative path
 * is read from the working directory; messages show the absolute path, so a wrong guess is visible.
 */
export function loadPublishers(path: string | undefined): Publisher[] {
  if (!path) return parsePublishers(defaultFeeds, 'the default feeds');
  const file = resolve(path);
  let content: unknown;
  try {
    content = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`Invalid configuration: NEWS_FEEDS ${file} cannot be read as JSON: ${(err as Error).message}`);
  }
  return parsePublishers(content, `NEWS_FEEDS ${file}`);
}
