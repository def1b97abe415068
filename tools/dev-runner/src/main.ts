import path from 'node:path';
import { SERVICES } from '@lib/services';
import { startDevEnvironment } from './dev-environment';

// The bundle lives in dist/tools/dev-runner/, three levels below the workspace root.
const root = path.resolve(__dirname, '..', '..', '..');

const width = Math.max(...[...SERVICES.map((s) => s.name), 'gateway', 'dev-runner'].map((name) => name.length));
const label = (name: string) => `${name.padEnd(width)} |`;

const devEnvironment = startDevEnvironment({
  root,
  env: process.env,
  // `npm run demo` (or `npm start -- --demo`): sample data and locally served sample feeds
  demo: process.argv.includes('--demo'),
  output: {
    info: (line) => console.log(`${label('dev-runner')} ${line}`),
    error: (line) => console.error(`${label('dev-runner')} ${line}`),
    summary: (lines) => console.log(lines.join('\n')),
    child: (name, stream, line) => (stream === 'stdout' ? console.log : console.error)(`${label(name)} ${line}`),
  },
});

// Ctrl-C in a terminal also reaches the children directly; they drain and exit 0 either way.
process.on('SIGINT', () => devEnvironment.stop());
process.on('SIGTERM', () => devEnvironment.stop());
void devEnvironment.finished.then((code) => {
  // Exiting by emptying the event loop lets piped output flush; the timer covers a handle left open.
  process.exitCode = code;
  setTimeout(() => process.exit(code), 2_000).unref();
});
