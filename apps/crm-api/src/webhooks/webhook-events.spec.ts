import { EVENT_NAMES, eventNameInBody, eventPattern, eventPatterns, matchesEvent, MAX_EVENT_PATTERNS, TEST_EVENT } from './webhook-events';

describe('webhook event names and subscription patterns', () => {
  it('names every object and action, 27 events', () => {
    expect(EVENT_NAMES).toHaveLength(27);
    expect(EVENT_NAMES).toContain('company.updated');
    expect(EVENT_NAMES).toContain('track.deleted');
    expect(EVENT_NAMES).toContain('ticket.updated');
    expect(EVENT_NAMES).toContain('document.deleted');
    expect(MAX_EVENT_PATTERNS).toBe(37);
  });

  it("puts the original's eventName in the body for the original's events, the {object}.{action} name for the others", () => {
    expect(eventNameInBody('contact.created')).toBe('Contact is Created');
    expect(eventNameInBody('deal.updated')).toBe('Opportunity is Updated');
    expect(eventNameInBody('company.created')).toBe('company.created');
    expect(eventNameInBody('note.deleted')).toBe('note.deleted');
    expect(eventNameInBody(TEST_EVENT)).toBe('webhook.test');
  });

  it("reads names, the original's names, object wildcards and *, case-sensitively", () => {
    expect(eventPattern('contact.created')).toBe('contact.created');
    expect(eventPattern('Opportunity is Created')).toBe('deal.created');
    expect(eventPattern('deal.*')).toBe('deal.*');
    expect(eventPattern('*')).toBe('*');
    for (const bad of ['Contact.created', 'contact', 'contact.', 'contact.made', '*.created', 'contact.created.x', 'opportunity is created', '', 'account.*']) expect(eventPattern(bad)).toBeUndefined();
  });

  it('lists every bad entry of a subscription, and keeps each pattern once', () => {
    expect(eventPatterns(['contact.created', 'Contact is Created', 'task.*', 'x', 'deal.gone'])).toEqual({
      patterns: ['contact.created', 'task.*'],
      problems: [expect.stringMatching(/^events\[3\] "x" is not an event name/), expect.stringMatching(/^events\[4\] "deal\.gone"/)],
    });
  });

  it('matches an event by name, by its object wildcard or by *; a test event matches every webhook', () => {
    expect(matchesEvent(['contact.created'], 'contact.created')).toBe(true);
    expect(matchesEvent(['contact.created'], 'contact.updated')).toBe(false);
    expect(matchesEvent(['contact.*'], 'contact.deleted')).toBe(true);
    expect(matchesEvent(['contact.*'], 'company.deleted')).toBe(false);
    expect(matchesEvent(['*'], 'track.updated')).toBe(true);
    expect(matchesEvent(['deal.updated'], TEST_EVENT)).toBe(true);
    expect(matchesEvent([], 'contact.created')).toBe(false);
  });
});
