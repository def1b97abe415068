import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFeedServer } from './feed-server';

describe('startFeedServer', () => {
  it('serves each feed file of the folder on 127.0.0.1 with its type, and nothing else', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'demo-feeds-'));
    await writeFile(path.join(dir, 'a.rss'), '<rss version="2.0"/>');
    await writeFile(path.join(dir, 'b.atom'), '<feed xmlns="http://www.w3.org/2005/Atom"/>');
    await writeFile(path.join(dir, 'notes.txt'), 'not a feed');
    const server = await startFeedServer(dir);
    try {
      expect([...server.urls.keys()]).toEqual(['a.rss', 'b.atom']);
      const rss = await fetch(server.urls.get('a.rss')!);
      expect([rss.status, rss.headers.get('content-type'), await rss.text()]).toEqual([200, 'application/rss+xml', '<rss version="2.0"/>']);
      const atom = await fetch(server.urls.get('b.atom')!);
      expect([atom.status, atom.headers.get('content-type')]).toEqual([200, 'application/atom+xml']);
      const origin = new URL(server.urls.get('a.rss')!).origin;
      expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      for (const other of ['/notes.txt', '/feeds/a.rss', '/A.RSS', '/', '/a.rss?x=1']) {
        expect({ other, status: (await fetch(`${origin}${other}`)).status }).toEqual({ other, status: 404 });
      }
    } finally {
      await server.close();
    }
  });

  it('refuses a folder without feeds', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'demo-feeds-'));
    await expect(startFeedServer(dir)).rejects.toThrow(/no feed/);
  });
});
