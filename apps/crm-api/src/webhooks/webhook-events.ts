/** The records whose changes webhooks report (companies are contacts of type COMPANY, reported apart). */
export const WEBHOOK_OBJECTS = ['contact', 'company', 'deal', 'note', 'task', 'event', 'track', 'ticket', 'document'] as const;
export type WebhookObject = (typeof WEBHOOK_OBJECTS)[number];
export const WEBHOOK_ACTIONS = ['created', 'updated', 'deleted'] as const;
export type WebhookAction = (typeof WEBHOOK_ACTIONS)[number];
/** An event's name: `contact.created`, `deal.deleted`, … */
export type EventName = `${WebhookObject}.${WebhookAction}`;
/** The event a test delivery carries (`sendTest`): matched by every webhook, whatever it subscribes to. */
export const TEST_EVENT = 'webhook.test';

export const EVENT_NAMES: readonly EventName[] = WEBHOOK_OBJECTS.flatMap((object) => WEBHOOK_ACTIONS.map((action) => `${object}.${action}` as const));

/**
 * The original's `eventName` strings, sent in the body in place of the `{object}.{action}` name so
 * that its receivers keep working: its documented webhooks cover contacts and deals ("Contact is
 * Created", "Opportunity is Updated"); deletes follow the same pattern. Every other event carries
 * its `{object}.{action}` name.
 */
export const ORIGINAL_EVENT_NAMES: Readonly<Partial<Record<EventName, string>>> = {
  'contact.created': 'Contact is Created',
  'contact.updated': 'Contact is Updated',
  'contact.deleted': 'Contact is Deleted',
  'deal.created': 'Opportunity is Created',
  'deal.updated': 'Opportunity is Updated',
  'deal.deleted': 'Opportunity is Deleted',
};

const BY_ORIGINAL_NAME = new Map(Object.entries(ORIGINAL_EVENT_NAMES).map(([name, original]) => [original, name]));

/** The `eventName` of the body: the original's string where it has one, else the `{object}.{action}` name. */
export const eventNameInBody = (name: EventName | typeof TEST_EVENT): string => (name === TEST_EVENT ? name : (ORIGINAL_EVENT_NAMES[name] ?? name));

/** Most patterns one webhook subscribes to (every name and wildcard fits). */
export const MAX_EVENT_PATTERNS = EVENT_NAMES.length + WEBHOOK_OBJECTS.length + 1;

/**
 * A subscription pattern as stored: an event name (`contact.created`; the original's "Contact is
 * Created" is read as it), a wildcard over one object's events (`contact.*`) or `*` (every event).
 * Undefined when `text` is none of these (names are case-sensitive).
 */
export function eventPattern(text: string): string | undefined {
  if (text === '*') return text;
  const original = BY_ORIGINAL_NAME.get(text);
  if (original) return original;
  const [object, action, ...rest] = text.split('.');
  if (rest.length || !(WEBHOOK_OBJECTS as readonly string[]).includes(object)) return undefined;
  return action === '*' || (WEBHOOK_ACTIONS as readonly string[]).includes(action) ? text : undefined;
}

/** The patterns of a webhook's `events` list, deduplicated in order, and a message per entry that is none. */
export function eventPatterns(list: readonly string[]): { patterns: string[]; problems: string[] } {
  const patterns: string[] = [];
  const problems: string[] = [];
  list.forEach((text, i) => {
    const pattern = eventPattern(text);
    if (pattern === undefined) problems.push(`events[${i}] "${text.slice(0, 60)}" is not an event name (such as contact.created or "Contact is Created"), an object's wildcard (contact.*) or *`);
    else if (!patterns.includes(pattern)) patterns.push(pattern);
  });
  return { patterns, problems };
}

/** Whether a webhook subscribed to `patterns` receives the event `name` (a test event reaches every webhook). */
export function matchesEvent(patterns: readonly string[], name: string): boolean {
  if (name === TEST_EVENT) return true;
  const object = name.slice(0, name.indexOf('.'));
  return patterns.some((pattern) => pattern === '*' || pattern === name || pattern === `${object}.*`);
}
