import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';

/** Every spelling of the parameter `api_key` a client may send: each character percent-encoded in turn, all of them, upper case hex. */
function spellings(): string[] {
  const name = 'api_key';
  const out = new Set<string>([name, 'api%5Fkey', 'api%5fkey', [...name].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')]);
  for (let i = 0; i < name.length; i++) out.add(`${name.slice(0, i)}%${name.charCodeAt(i).toString(16).toUpperCase()}${name.slice(i + 1)}`);
  return [...out];
}

describe('keys never reach the logs; names are text', () => {
  let t: TestApp;
  const lines: string[] = [];
  const writes = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };

  beforeAll(async () => {
    const capture = (chunk: unknown) => {
      lines.push(String(chunk));
      return true;
    };
    process.stdout.write = capture as typeof process.stdout.write;
    process.stderr.write = capture as typeof process.stderr.write;
    t = await startTestApp({ clock: new ManualClock(Date.UTC(2026, 10, 18, 12, 0, 0)), env: { LOG_LEVEL: 'info' } });
  });
  afterAll(async () => {
    await t.close();
    process.stdout.write = writes.out;
    process.stderr.write = writes.err;
  });

  // Authenticated (200), refused by validation (400), unknown (404), and wrong method (405): each is logged.
  const PATHS = ['/account', '/sports', '/odds?limit=-5', '/no-such-route', '/account/keys/key_0000000000000000'];

  it.each(spellings())('?%s=KEY: the key works as sent, and no log line carries it', async (name) => {
    const key = await t.newKey('pro');
    const me = await fetch(`${t.url}/api/v1/account?${name}=${key}`);
    expect(me.status).toBe(200);
    const before = lines.length;
    for (const path of PATHS) {
      const sep = path.includes('?') ? '&' : '?';
      await fetch(`${t.url}/api/v1${path}${sep}${name}=${key}&${name}=${key}`);
      await fetch(`${t.url}/api/v1${path}${sep}x=1&${name.toUpperCase()}=${key}`);
      await fetch(`${t.url}/api/v1${path}`, { method: 'PATCH', headers: { 'X-API-Key': key } });
    }
    const logged = lines.slice(before).join('');
    expect(logged).toContain('"msg":"request"');
    expect(logged).not.toContain(key);
    expect(lines.join('')).not.toContain(key);
  });

  it('the test keys of API_KEYS are never logged either', () => {
    for (const k of Object.values(KEYS)) expect(lines.join('')).not.toContain(k);
  });

  // Every Unicode control character (C0, DEL, C1 such as NEL U+0085 and CSI U+009B), separators and bidi controls.
  const FORBIDDEN = [
    ...Array.from({ length: 0x20 }, (_, i) => i),
    ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i),
    0x2028,
    0x2029,
    0x202a,
    0x202e,
    0x2066,
    0x2069,
  ].map((c) => String.fromCharCode(c));

  it('key and account names: every control or formatting character is refused with 400 on every route that stores a name', async () => {
    const sharp = await t.call('/admin/keys', { method: 'POST', body: { tier: 'sharp' }, headers: { 'X-Admin-Token': t.adminToken } });
    const a = sharp.json.data;
    for (const c of FORBIDDEN) {
      const name = `a${c}b`;
      const label = `U+${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
      const tries = [
        await t.call('/account/keys', { key: a.key, method: 'POST', body: { name } }),
        await t.call(`/account/keys/${a.id}/rotate`, { key: a.key, method: 'POST', body: { name } }),
        await t.call('/admin/keys', { method: 'POST', body: { tier: 'pro', name }, headers: { 'X-Admin-Token': t.adminToken } }),
        await t.call('/admin/keys', {
          method: 'POST',
          body: { account_id: a.account_id, name },
          headers: { 'X-Admin-Token': t.adminToken },
        }),
      ];
      for (const r of tries) {
        expect([label, r.status, r.json?.error?.code]).toEqual([label, 400, 'invalid_request']);
        expect(r.json.error.message).toMatch(/name/);
      }
    }
    // The key still works and holds one key: nothing was created or rotated.
    expect((await t.call('/account/keys', { key: a.key })).json.data).toHaveLength(1);
    // Printable text of any script is fine.
    const ok = await t.call('/account/keys', { key: a.key, method: 'POST', body: { name: 'Équipe ☕ 東京 – «desk»' } });
    expect([ok.status, ok.json.data.name]).toEqual([201, 'Équipe ☕ 東京 – «desk»']);
  });
});
