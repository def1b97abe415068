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
  contact: { root: 'contact' },
  contacts: { root: 'contacts', item: 'contact' },
  deal: { root: 'opportunity' },
  deals: { root: 'collection', item: 'opportunity' },
  note: { root: 'note' },
  notes: { root: 'collection', item: 'note' },
  task: { root: 'task' },
  tasks: { root: 'tasks', item: 'task' },
  event: { root: 'event' },
  events: { root: 'events', item: 'event' },
  track: { root: 'track' },
  tracks: { root: 'tracks', item: 'track' },
  user: { root: 'user' },
  users: { root: 'users', item: 'user' },
  customField: { root: 'customFieldDef' },
  customFields: { root: 'customFieldDefs', item: 'customFieldDef' },
  category: { root: 'category' },
  categories: { root: 'categories', item: 'category' },
  result: { root: 'result' },
} as const;
