import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fromRoot } from './workspace';

// backup.sh and restore.sh as the CronJob and the restore Job run them (POSIX sh), with stand-ins
// for mongodump, mongorestore and date on PATH: no MongoDB tools are installable here, so what is
// exercised is the scripts' own logic (file names, retention, failures, which archive is restored
// and the tools' arguments), not the archive format itself.
let dir: string;
let bin: string;
let backups: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'deploy-backup-'));
  bin = path.join(dir, 'bin');
  backups = path.join(dir, 'backups');
  mkdirSync(bin);
  mkdirSync(backups);
  const stub = (name: string, body: string) => {
    writeFileSync(path.join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(path.join(bin, name), 0o755);
  };
  // records its arguments; writes the archive (half of it, then fails, when STUB_FAIL is set)
  stub('mongodump', `echo "mongodump $*" >> "${dir}/calls"
for a in "$@"; do case "$a" in --archive=*) out="\${a#--archive=}" ;; esac; done
if [ -n "\${STUB_FAIL:-}" ]; then printf partial > "$out"; exit 1; fi
printf 'dump of %s' "$MONGO_URI" > "$out"`);
  stub('mongorestore', `echo "mongorestore $*" >> "${dir}/calls"`);
  // a clock that moves one minute per call: 20261124T0200nnZ
  stub('date', `n=$(cat "${dir}/clock" 2>/dev/null || echo 0); echo $((n + 1)) > "${dir}/clock"; printf '20261124T02%02d00Z\\n' "$n"`);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(script: string, env: Record<string, string>) {
  const result = spawnSync('sh', [fromRoot('k8s/base/mongodb', script)], { env: { PATH: `${bin}:${process.env.PATH}`, BACKUP_DIR: backups, DATABASE: 'crm', MONGO_URI: 'mongodb://crm:pw@h/crm', ...env }, encoding: 'utf8' });
  return { status: result.status, out: result.stdout, err: result.stderr };
}
const files = () => readdirSync(backups).sort();
const calls = () => readFileSync(path.join(dir, 'calls'), 'utf8').trim().split('\n');

describe('backup.sh (the backup CronJob)', () => {
  it('writes a gzip archive named by time, and keeps only the newest BACKUP_KEEP', () => {
    writeFileSync(path.join(backups, 'users-20200101T000000Z.archive.gz'), 'another database'); // not ours: kept
    for (let i = 0; i < 4; i += 1) expect(run('backup.sh', { BACKUP_KEEP: '2' }).status).toBe(0);
    expect(files()).toEqual(['crm-20261124T020200Z.archive.gz', 'crm-20261124T020300Z.archive.gz', 'users-20200101T000000Z.archive.gz']);
    expect(readFileSync(path.join(backups, 'crm-20261124T020300Z.archive.gz'), 'utf8')).toBe('dump of mongodb://crm:pw@h/crm');
    expect(calls()[0]).toBe(`mongodump --uri=mongodb://crm:pw@h/crm --archive=${backups}/crm-20261124T020000Z.archive.gz.partial --gzip`);
    expect(run('backup.sh', { BACKUP_KEEP: '2' }).out).toContain('backup deleted (retention 2): crm-20261124T020200Z.archive.gz');
  });

  it('leaves no archive and deletes nothing when the dump fails', () => {
    expect(run('backup.sh', { BACKUP_KEEP: '1' }).status).toBe(0);
    const failed = run('backup.sh', { BACKUP_KEEP: '1', STUB_FAIL: '1' });
    expect(failed.status).not.toBe(0);
    expect(files()).toEqual(['crm-20261124T020000Z.archive.gz']);
  });

  it('refuses a retention that would delete every archive, and missing settings', () => {
    expect(run('backup.sh', { BACKUP_KEEP: '0' })).toMatchObject({ status: 2, err: expect.stringContaining('BACKUP_KEEP must be a whole number of at least 1, got "0"') });
    expect(run('backup.sh', { BACKUP_KEEP: 'x' }).status).toBe(2);
    expect(run('backup.sh', { BACKUP_KEEP: '3', DATABASE: '' }).err).toContain('DATABASE is not set');
    expect(files()).toEqual([]);
  });
});

describe('restore.sh (the restore Job)', () => {
  beforeEach(() => {
    for (const stamp of ['20261122T021700Z', '20261123T021700Z']) writeFileSync(path.join(backups, `crm-${stamp}.archive.gz`), stamp);
    writeFileSync(path.join(backups, 'users-20261124T021700Z.archive.gz'), 'another database');
  });

  it('restores the newest archive of its database with --drop, its namespaces only', () => {
    const result = run('restore.sh', { ARCHIVE: 'latest' });
    expect(result.status).toBe(0);
    expect(calls()).toEqual([`mongorestore --uri=mongodb://crm:pw@h/crm --archive=${backups}/crm-20261123T021700Z.archive.gz --gzip --drop --nsInclude=crm.*`]);
    expect(result.out).toContain('restored crm from crm-20261123T021700Z.archive.gz');
  });

  it('restores a named archive', () => {
    expect(run('restore.sh', { ARCHIVE: 'crm-20261122T021700Z.archive.gz' }).status).toBe(0);
    expect(calls()[0]).toContain(`--archive=${backups}/crm-20261122T021700Z.archive.gz `);
  });

  it('refuses a missing archive, a path outside the backups, and a database without archives, restoring nothing', () => {
    expect(run('restore.sh', { ARCHIVE: 'crm-20991231T000000Z.archive.gz' })).toMatchObject({ status: 1, err: expect.stringContaining('no archive crm-20991231T000000Z.archive.gz') });
    expect(run('restore.sh', { ARCHIVE: '../secrets' })).toMatchObject({ status: 2, err: expect.stringContaining('ARCHIVE must be a file name') });
    expect(run('restore.sh', { ARCHIVE: 'latest', DATABASE: 'news' })).toMatchObject({ status: 1, err: expect.stringContaining('no archive of news') });
    expect(() => calls()).toThrow(); // mongorestore never ran
  });
});
