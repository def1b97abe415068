/**
 * What the embedded database costs as data grows (README "The database"): measured through crm-api
 * on the development machine (2 cores). Each insert takes time in proportion to the collection's
 * size, a property of the emulator that a real MongoDB does not have.
 */
export const EMBEDDED_LIMITS: readonly string[] = [
  'database: the embedded server slows down as a collection grows (measured through crm-api: POST contact 5 ms at 500 contacts,' +
    ' 38 ms at 2,000, 154 ms at 4,000; a page of 20 contacts 300 ms at 4,000): keep it to a few thousand documents per collection',
  'database: for more, use a real MongoDB (7 or newer): MONGO_URL=mongodb://localhost:27017 npm start',
];
