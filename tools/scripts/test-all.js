#!/usr/bin/env node
// `npm test`: every project's jest suite through Nx (no cache: tests always run), then one
// closing line with the totals. Exits non-zero if any project failed or reported nothing.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..', '..');
const reports = path.join(root, 'reports', 'jest');
fs.rmSync(reports, { recursive: true, force: true });

const nx = spawnSync('npx', ['nx', 'run-many', '-t', 'test', '--skip-nx-cache', '--outputStyle=stream', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', FORCE_COLOR: process.env.FORCE_COLOR ?? '0' },
});

const results = fs.existsSync(reports)
  ? fs.readdirSync(reports).map((file) => JSON.parse(fs.readFileSync(path.join(reports, file), 'utf8')))
  : [];
const total = (key) => results.reduce((sum, r) => sum + r[key], 0);
const failedProjects = results.filter((r) => !r.success).map((r) => r.project);

console.log('');
for (const r of results.sort((a, b) => a.project.localeCompare(b.project))) {
  console.log(`  ${r.success ? 'ok  ' : 'FAIL'} ${r.project.padEnd(14)} ${r.passed} passed, ${r.failed} failed`);
}
const failures = results.flatMap((r) => (r.failures ?? []).map((f) => ({ project: r.project, ...f })));
for (const f of failures.slice(0, 20)) console.log(`  failed: ${f.where} > ${f.test}\n          ${f.why}`);
if (failures.length > 20) console.log(`  ... and ${failures.length - 20} more failed tests`);
if (failedProjects.length) console.log(`Failed projects: ${failedProjects.join(', ')}`);
console.log(`Tests: ${total('passed')} passed, ${total('failed')} failed, ${total('skipped')} skipped`);

const ok = nx.status === 0 && failedProjects.length === 0 && results.length > 0;
process.exit(ok ? 0 : 1);
