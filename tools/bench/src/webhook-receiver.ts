import { receiverServer } from './receiver-server';

/**
 * The webhook row's receiver process (receiver-server.ts), on PORT; the bench starts it and stops it
 * with SIGTERM. An entry point of its own: the server must not start in the bench's process, which
 * imports receiver-server.ts too.
 */
const server = receiverServer();
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
