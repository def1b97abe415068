import { Webhook } from 'standardwebhooks';
import { newSecret, SECRET_BYTES, signedHeaders } from './signature';

describe('Standard Webhooks signatures', () => {
  const body = JSON.stringify({ eventName: 'Contact is Created', eventData: { id: 1, name: 'Zoë ✓' } });

  it('makes secrets of 32 random bytes, whsec_-prefixed', () => {
    const secret = newSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(SECRET_BYTES);
    expect(newSecret()).not.toBe(secret);
  });

  it('signs as the standardwebhooks package verifies, and a changed body, id or timestamp fails', () => {
    const secret = newSecret();
    const now = Math.floor(Date.now() / 1000);
    const headers = signedHeaders([secret], 'msg_1', now, body);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('Zoë', 'Zoe'), { ...headers })).toThrow(/No matching signature/);
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_2' })).toThrow(/No matching signature/);
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-timestamp': String(now + 1) })).toThrow(/No matching signature/);
    expect(() => new Webhook(newSecret()).verify(body, { ...headers })).toThrow(/No matching signature/);
  });

  it('signs with every secret during a rotation: a receiver holding either one verifies', () => {
    const [old, current] = [newSecret(), newSecret()];
    const headers = signedHeaders([old, current], 'msg_1', Math.floor(Date.now() / 1000), body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(old).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(new Webhook(current).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('refuses to sign without a secret', () => {
    expect(() => signedHeaders([], 'msg_1', 1, body)).toThrow('no secret to sign with');
  });
});
