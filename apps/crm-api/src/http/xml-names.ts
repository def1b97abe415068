/** A resource's element, and its list's: a `list` element holding one `element` per entry. */
const named = <E extends string, L extends string>(element: E, list: L) => ({ root: element, list: { root: list, item: element } }) as const;

/**
 * The XML element names of every resource, as the original service writes them: its Java client's
 * JAXB classes read them (github agilecrm/java-api, `com.agilecrm.stubs`). A deal is `<opportunity>`
 * (`Deal` is `@XmlRootElement(name = "opportunity")`); a list of deals or of notes is a
 * `<collection>` of them (`DealCollection`, `NoteCollection`). Contacts keep the spec's names
 * (C1: `<contacts>` of `<contact>`). The client's `User` (`<owner>`) is a deal's `owner` element,
 * which has that name already; it reads no user endpoint, so users, like the resources it has no
 * class for, keep their own names. Used only in response (and request body) declarations,
 * `xmlRoot`/`xmlList`: the reply path reads the names from there, and a page is written in the
 * names its list schema declares (`listNames`, http/page-reply.ts).
 */
export const XML_NAMES = {
  contact: named('contact', 'contacts'),
  deal: named('opportunity', 'collection'),
  note: named('note', 'collection'),
  task: named('task', 'tasks'),
  event: named('event', 'events'),
  track: named('track', 'tracks'),
  user: named('user', 'users'),
  customField: named('customFieldDef', 'customFieldDefs'),
  category: named('category', 'categories'),
  document: named('document', 'documents'),
  ticket: named('ticket', 'tickets'),
  ticketNote: named('ticketNote', 'ticketNotes'),
  ticketFilter: named('filter', 'filters'),
  ticketGroup: named('group', 'groups'),
  workflow: named('workflow', 'workflows'),
  enrolment: named('subscriber', 'subscribers'),
  result: { root: 'result' },
  webhook: { root: 'webhook' },
  webhooks: { root: 'webhooks', item: 'webhook' },
  delivery: { root: 'delivery' },
  deliveries: { root: 'deliveries', item: 'delivery' },
} as const;
