import { readFileSync, readdirSync } from 'node:fs';
import { placeholderReason } from '@lib/validation';
import { renderKustomization } from './kustomize';
import { fromRoot } from './workspace';

/** The app secrets (not MongoDB's passwords): what the apps refuse when they look like placeholders in production. */
const APP_SECRETS = ['CRM_ADMIN_API_KEY', 'CRM_CURSOR_SECRET', 'ARTICLES_API_KEY', 'MASTER_KEY', 'JWT_SECRET', 'USERS_API_KEY', 'USERS_CURSOR_SECRET'];

const envLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => /^[A-Z_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const);

describe('app secrets in docker/ and k8s/ against the production placeholder rule', () => {
  it('the dev overlay (NODE_ENV=production from the base) carries app secrets the apps accept, so its pods start', () => {
    const secrets = renderKustomization(fromRoot('k8s', 'overlays', 'dev')).filter((resource) => resource.kind === 'Secret');
    const checked = secrets.flatMap((secret) =>
      Object.entries((secret as unknown as { data: Record<string, string> }).data)
        .filter(([name]) => APP_SECRETS.includes(name))
        .map(([name, value]) => [`${secret.metadata.name}/${name}`, placeholderReason(Buffer.from(value, 'base64').toString())] as const),
    );
    expect(checked.map(([name]) => name.split('/')[1]).sort()).toEqual([...APP_SECRETS].sort());
    expect(checked.filter(([, reason]) => reason !== undefined)).toEqual([]);
  });

  it('the templates to copy (prod overlay, compose) hold placeholders the apps refuse, so none reaches production unchanged', () => {
    const dir = fromRoot('k8s', 'overlays', 'prod', 'secrets');
    const templates = [...readdirSync(dir).map((file) => `${dir}/${file}`), fromRoot('docker', '.env.example')];
    const values = templates.flatMap((file) => envLines(readFileSync(file, 'utf8')).filter(([name]) => APP_SECRETS.includes(name)));
    expect(values.length).toBeGreaterThanOrEqual(APP_SECRETS.length * 2);
    for (const [name, value] of values) expect([name, placeholderReason(value)]).toEqual([name, expect.stringContaining('placeholder')]);
  });
});
