import path from 'node:path';
import { SERVICES, SERVICE_NODE_FLAGS, serviceEntry } from '@lib/services';
import { planLaunch, summaryLines } from './launch-plan';

const root = '/repo';
const built = (...relative: string[]) => {
  const files = new Set(relative.map((r) => path.join(root, r)));
  return (file: string) => files.has(file);
};
// Its own table, so the tests hold while the real one grows.
const services = [serviceEntry('articles-api', 'articles', 3002), serviceEntry('users-api', 'users', 3004)];
const projects = services.map((s) => `apps/${s.name}/project.json`);
const everything = built(...projects, ...services.map((s) => `dist/apps/${s.name}/main.js`), 'dist/tools/gateway/main.js');

describe('planLaunch', () => {
  it('reads the shared service table unless given another', () => {
    const plan = planLaunch({ root, env: {}, exists: () => true });
    expect(plan.apps.map((a) => a.name)).toEqual(SERVICES.map((s) => s.name));
    expect(plan.apps.map((a) => a.port)).toEqual(SERVICES.map((s) => s.defaultPort));
  });

  it('runs every built app on its port, then the gateway', () => {
    const plan = planLaunch({ root, env: {}, services, exists: everything });
    expect(plan.missing).toEqual([]);
    expect(plan.apps.map((a) => a.name)).toEqual(['articles-api', 'users-api']);
    const articles = plan.apps.find((a) => a.name === 'articles-api')!;
    expect(articles).toEqual({
      name: 'articles-api',
      script: path.join(root, 'dist/apps/articles-api/main.js'),
      // the Node flags of the production image (its NODE_OPTIONS and command), so npm start uses memory alike
      nodeArgs: ['--enable-source-maps', ...SERVICE_NODE_FLAGS],
      port: 3002,
      ready: { url: 'http://127.0.0.1:3002/readyz', anyStatus: false },
      // behind the local gateway on loopback: its X-Forwarded-For is believed, nobody else's
      env: { PORT: '3002', TRUST_PROXY: 'loopback' },
      urls: ['http://localhost:3002', 'http://articles.localhost:8080'],
    });
    expect(plan.gateway).toMatchObject({ nodeArgs: articles.nodeArgs, port: 8080, ready: { url: 'http://127.0.0.1:8080/', anyStatus: true }, env: {}, urls: ['http://localhost:8080'] });
  });

  it('follows the port and domain variables', () => {
    const plan = planLaunch({ root, env: { ARTICLES_PORT: '4002', GATEWAY_PORT: '80', GATEWAY_DOMAIN: 'dev.test' }, services, exists: everything });
    const articles = plan.apps.find((a) => a.name === 'articles-api')!;
    expect(articles.env).toEqual({ PORT: '4002', TRUST_PROXY: 'loopback' });
    expect(articles.urls).toEqual(['http://localhost:4002', 'http://articles.dev.test']);
  });

  it('leaves BIND_ADDRESS to the processes (they read it from the environment), still reaching them on loopback when it is every interface', () => {
    for (const bind of ['0.0.0.0', '::', '127.0.0.1']) {
      const plan = planLaunch({ root, env: { BIND_ADDRESS: bind }, services, exists: everything });
      const articles = plan.apps.find((a) => a.name === 'articles-api')!;
      expect([articles.env, articles.ready.url, articles.urls[0], plan.gateway!.env]).toEqual([{ PORT: '3002', TRUST_PROXY: 'loopback' }, 'http://127.0.0.1:3002/readyz', 'http://localhost:3002', {}]);
    }
  });

  it('on one address of the machine, reaches the apps there and trusts the gateway connecting from it', () => {
    for (const [bind, host] of [['192.168.1.20', '192.168.1.20'], ['fd00::20', '[fd00::20]']]) {
      const plan = planLaunch({ root, env: { BIND_ADDRESS: bind }, services, exists: everything });
      const articles = plan.apps.find((a) => a.name === 'articles-api')!;
      expect([articles.env, articles.ready.url, articles.urls[0]]).toEqual([{ PORT: '3002', TRUST_PROXY: `loopback, ${bind}` }, `http://${host}:3002/readyz`, `http://${host}:3002`]);
      expect([plan.gateway!.env, plan.gateway!.ready.url]).toEqual([{ GATEWAY_TARGET: `http://${host}:{port}` }, `http://${host}:8080/`]);
    }
  });

  it('keeps the TRUST_PROXY and GATEWAY_TARGET it is given, and refuses a BIND_ADDRESS that is not an address', () => {
    const plan = planLaunch({ root, env: { BIND_ADDRESS: '192.168.1.20', TRUST_PROXY: '192.168.1.0/24', GATEWAY_TARGET: 'http://127.0.0.1:{port}' }, services, exists: everything });
    expect([plan.apps[0].env, plan.gateway!.env]).toEqual([{ PORT: '3002' }, {}]);
    expect(() => planLaunch({ root, env: { BIND_ADDRESS: 'my-laptop' }, services, exists: everything })).toThrow('BIND_ADDRESS must be an IP address');
  });

  it('warns about and skips what is not built', () => {
    const plan = planLaunch({ root, env: {}, services, exists: built(...projects, 'dist/apps/users-api/main.js') });
    expect(plan.apps.map((a) => a.name)).toEqual(['users-api']);
    expect(plan.services.map((s) => s.name)).toEqual(['users-api']);
    expect(plan.gateway).toBeUndefined();
    expect(plan.missing).toEqual([
      'articles-api is not built (dist/apps/articles-api/main.js is missing): skipping it; build with npx nx build articles-api',
      'the gateway is not built (dist/tools/gateway/main.js is missing): skipping it; build with npx nx build gateway',
    ]);
  });

  it('skips a listed service whose project does not exist yet, and runs the others', () => {
    const withNews = [...services, serviceEntry('news-api', 'news', 3003)];
    const plan = planLaunch({ root, env: {}, services: withNews, exists: everything });
    expect(plan.apps.map((a) => a.name)).toEqual(['articles-api', 'users-api']);
    expect(plan.services.map((s) => s.name)).toEqual(['articles-api', 'users-api']);
    expect(plan.gateway).toBeDefined();
    expect(plan.missing).toEqual(['news-api has no project yet (apps/news-api/project.json is missing): skipping it']);
  });

  it('rejects clashing and malformed ports before starting anything', () => {
    expect(() => planLaunch({ root, env: { USERS_PORT: '8080' }, services, exists: everything })).toThrow(
      'users-api (USERS_PORT) and gateway (GATEWAY_PORT) both want port 8080',
    );
    expect(() => planLaunch({ root, env: { ARTICLES_PORT: '3004' }, services, exists: everything })).toThrow('both want port 3004');
    expect(() => planLaunch({ root, env: { GATEWAY_PORT: 'x' }, services, exists: everything })).toThrow('GATEWAY_PORT');
  });

});

describe('summaryLines', () => {
  it('aligns names and lists the URLs', () => {
    const plan = planLaunch({ root, env: {}, services, exists: everything });
    const lines = summaryLines([...plan.apps, plan.gateway!]);
    expect(lines).toContain('articles-api  http://localhost:3002  http://articles.localhost:8080');
    expect(lines).toContain('users-api     http://localhost:3004  http://users.localhost:8080');
    expect(lines[lines.length - 1]).toBe('gateway       http://localhost:8080');
  });
});
