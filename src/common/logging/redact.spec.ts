import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { isSecretParam, redact, redactUrl } from './redact.js';

const SECRET = 'sk_test_pro_0000000001';

/** One spelling of a name: each character kept, upper-cased, or percent-encoded (hex in either case). */
const spelling = (name: string) =>
  fc.tuple(...[...name].map(() => fc.constantFrom<'keep' | 'upper' | 'pct' | 'PCT'>('keep', 'upper', 'pct', 'PCT'))).map((how) =>
    [...name]
      .map((c, i) => {
        const hex = c.charCodeAt(0).toString(16).padStart(2, '0');
        if (how[i] === 'upper') return c.toUpperCase();
        if (how[i] === 'pct') return `%${hex.toLowerCase()}`;
        if (how[i] === 'PCT') return `%${hex.toUpperCase()}`;
        return c;
      })
      .join(''),
  );

describe('redact: secrets in query strings, whatever the spelling of the name', () => {
  it('the reproduction: api%5Fkey', () => {
    expect(redact(`/api/v1/account?api%5Fkey=${SECRET}`)).toBe('/api/v1/account?api%5Fkey=[redacted]');
  });

  it('every spelling of api_key that a query parser reads as api_key is redacted, wherever it stands, each time it appears', () => {
    fc.assert(
      fc.property(spelling('api_key'), fc.nat(3), fc.boolean(), (name, before, repeat) => {
        const parts = Array.from({ length: before }, (_, i) => `p${i}=v${i}`);
        parts.push(`${name}=${SECRET}`);
        if (repeat) parts.push(`${name}=${SECRET}x`);
        const url = `/api/v1/odds?${parts.join('&')}`;
        // The reference reading (percent-decoding, `+` as space): the parameter is api_key in any case.
        const read = [...new URLSearchParams(url.slice(url.indexOf('?')))].map(([k]) => k.toLowerCase());
        expect(read).toContain('api_key');
        expect(redact(url)).not.toContain(SECRET);
        expect(redactUrl(url)).not.toContain(SECRET);
        expect(redact(JSON.stringify({ url }))).not.toContain(SECRET);
      }),
      { numRuns: 500 },
    );
  });

  it('other names of secrets, and separators: + as space, ;, brackets, double encoding', () => {
    for (const name of ['apiKey', 'API-KEY', 'api+key', 'api%20key', 'api_key[]', 'api%255Fkey', 'x-api-key', 'token', 'admin_token'])
      expect(redact(`/x?a=1&${name}=${SECRET.replace('sk_test_', 'zz')}&b=2`)).toBe(`/x?a=1&${name}=[redacted]&b=2`);
    expect(redact(`/x?a=1;api_key=abc`)).toBe('/x?a=1;api_key=[redacted]');
    expect(isSecretParam('sport')).toBe(false);
    expect(redact('/api/v1/odds?sport=nba&market=h2h')).toBe('/api/v1/odds?sport=nba&market=h2h');
  });

  it('headers echoed in text and issued keys anywhere', () => {
    expect(redact('{"x-api-key":"abc"}')).toBe('{"x-api-key":"[redacted]"}');
    expect(redact('Authorization: Bearer abc')).not.toContain('abc');
    expect(redact('bearer abc')).toBe('bearer [redacted]');
    expect(redact('failed for sk_live_0123456789abcdefABCDEF0123456789 at')).toBe('failed for sk_live_[redacted] at');
    expect(redact('Missing API key: send it in the X-API-Key header')).toBe('Missing API key: send it in the X-API-Key header');
  });
});
