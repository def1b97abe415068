import path from 'node:path';

/**
 * Where `npm start` writes the URL of the embedded server it runs, so that commands in another
 * terminal (`npm run crm:admin`) reach the same in-memory database.
 */
export const EMBEDDED_URL_FILE = path.resolve(process.cwd(), '.data', 'embedded-mongo.url');
