/**
 * What `npm run demo` stores through the services' APIs. Natural keys (contact emails, track and
 * article titles, user names, the news user's email) make the seeding idempotent: on a restart
 * against a kept database, what exists is found and left alone.
 */

export const DEMO_TRACK = { name: 'Demo sales', milestones: ['Lead', 'Qualified', 'Proposal', 'Won', 'Lost'] };

export interface DemoContact {
  email: string;
  firstName: string;
  lastName: string;
  title: string;
  tags: string[];
  stars: number;
  deal?: { name: string; value: number; milestone: string; probability: number };
  task?: { subject: string; type: 'CALL' | 'EMAIL' | 'MEETING' | 'FOLLOW_UP' | 'SEND'; priority: 'HIGH' | 'NORMAL' | 'LOW'; dueInDays: number };
  note?: { subject: string; description: string };
}

export const DEMO_CONTACTS: DemoContact[] = [
  {
    email: 'ann.lee@acme-demo.test',
    firstName: 'Ann',
    lastName: 'Lee',
    title: 'Head of Operations',
    tags: ['Customer', 'VIP'],
    stars: 5,
    deal: { name: 'Acme support renewal', value: 24000, milestone: 'Proposal', probability: 70 },
    task: { subject: 'Call Ann about the renewal terms', type: 'CALL', priority: 'HIGH', dueInDays: 1 },
    note: { subject: 'Quarterly review', description: 'Happy with response times; wants a second site covered.' },
  },
  {
    email: 'bo.chen@globex-demo.test',
    firstName: 'Bo',
    lastName: 'Chen',
    title: 'CTO',
    tags: ['Lead'],
    stars: 3,
    deal: { name: 'Globex pilot', value: 8000, milestone: 'Qualified', probability: 30 },
    task: { subject: 'Send the pilot proposal', type: 'SEND', priority: 'NORMAL', dueInDays: 3 },
    note: { subject: 'Intro call', description: 'Evaluating three vendors; decision in Q1.' },
  },
  {
    email: 'cara.diaz@initech-demo.test',
    firstName: 'Cara',
    lastName: 'Diaz',
    title: 'Procurement lead',
    tags: ['Customer'],
    stars: 4,
    deal: { name: 'Initech licence expansion', value: 15000, milestone: 'Won', probability: 100 },
    task: { subject: 'Kick-off meeting for the new seats', type: 'MEETING', priority: 'NORMAL', dueInDays: 7 },
  },
  {
    email: 'dev.patel@umbrella-demo.test',
    firstName: 'Dev',
    lastName: 'Patel',
    title: 'Finance manager',
    tags: ['Lead', 'Newsletter'],
    stars: 2,
    deal: { name: 'Umbrella starter plan', value: 3000, milestone: 'Lead', probability: 10 },
    note: { subject: 'Met at the expo', description: 'Asked for pricing for 20 users.' },
  },
];

export const DEMO_ARTICLES = [
  { title: 'Welcome to the demo', content: 'This article was stored by npm run demo through POST /articles. Edit or delete it as you like.' },
  { title: 'Keyset paging in five minutes', content: 'Every list in these services pages on an indexed key with an id tie-breaker, never with skip.' },
  { title: 'Running on a real MongoDB', content: 'Set MONGO_URL (or a per-service *_MONGO_URL) and npm start uses that server instead of the embedded one.' },
];

export const DEMO_USERS = [
  { name: 'Alice Nguyen', age: '34', city: 'Sydney' },
  { name: 'Ben Walker', age: '41.5', city: 'Melbourne' },
  { name: 'Chloe Martin', age: '28', city: 'Brisbane' },
  { name: 'Daniel Kim', age: '52', city: 'Perth' },
];

/** A news-api admin to sign in with (POST /auth) and to read the synced news. */
export const DEMO_NEWS_USER = { email: 'demo@example.com', password: 'demo-password-2026', role: 'admin' };
