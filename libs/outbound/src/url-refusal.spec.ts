import { allowedHosts } from './allowed-hosts';
import { urlRefusal } from './guarded-request';
import { outboundPolicy } from './policy';

describe('urlRefusal: what the guard refuses of a URL before resolving its name', () => {
  const strict = outboundPolicy({ name: 'webhooks', allowed: allowedHosts('', 'WEBHOOK_ALLOWED_HOSTS') });
  const listed = outboundPolicy({ name: 'webhooks', allowed: allowedHosts('hooks.internal, 10.1.0.0/16', 'WEBHOOK_ALLOWED_HOSTS') });
  const development = outboundPolicy({ name: 'webhooks', allowHttp: true });

  it('accepts https to a name (its addresses are checked at each request) or a public address', () => {
    expect(urlRefusal(strict, 'https://hooks.example.com/in')).toBeUndefined();
    expect(urlRefusal(strict, 'https://93.184.215.14/in')).toBeUndefined();
  });

  it('refuses plain http, non-public address literals, credentials and other schemes, with the rule', () => {
    expect(urlRefusal(strict, 'http://hooks.example.com/in')).toMatchObject({ failure: 'refused', rule: 'plain_http' });
    expect(urlRefusal(strict, 'https://10.1.2.3/in')).toMatchObject({ failure: 'refused', rule: 'private' });
    expect(urlRefusal(strict, 'https://[fd00:ec2::254]/')).toMatchObject({ failure: 'refused', rule: 'cloud_metadata' });
    expect(urlRefusal(strict, 'https://a:b@hooks.example.com/')).toMatchObject({ failure: 'refused', rule: 'credentials_in_url' });
    expect(urlRefusal(strict, 'ftp://hooks.example.com/')).toMatchObject({ failure: 'bad_url' });
    expect(urlRefusal(strict, 'hooks.example.com/in')).toMatchObject({ failure: 'bad_url' });
  });

  it('lets the allow-list through, plain http included; development allows plain http to public receivers only', () => {
    expect(urlRefusal(listed, 'http://hooks.internal:8080/in')).toBeUndefined();
    expect(urlRefusal(listed, 'http://10.1.2.3/in')).toBeUndefined();
    expect(urlRefusal(listed, 'https://10.2.0.1/in')).toMatchObject({ rule: 'private' });
    expect(urlRefusal(development, 'http://hooks.example.com/in')).toBeUndefined();
    expect(urlRefusal(development, 'http://127.0.0.1/in')).toMatchObject({ rule: 'loopback' });
  });
});
