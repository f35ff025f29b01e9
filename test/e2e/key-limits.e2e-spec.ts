import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import { loadTiers, TIERS } from '../../src/config/tiers.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * An account never holds more working keys than its limit allows, whatever the sequence of creations and
 * rotations: keys in a rotation grace period count, and a rotation may exceed the limit by the one key it
 * replaces, for that key's grace period.
 */
describe('key limits under rotation', () => {
  let t: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 18, 12, 0, 0));
  const TABLE = loadTiers();

  beforeAll(async () => {
    // The probes of keys that no longer work are failed logins: the address must not be locked out by them.
    t = await startTestApp({ clock, env: { AUTH_FAILURES_PER_MINUTE: '1000000' } });
  });
  afterAll(async () => {
    await t.close();
  });

  async function account(tier: string, maxKeys?: number): Promise<{ key: string; id: string; account_id: string }> {
    const r = await t.call('/admin/keys', { method: 'POST', body: { tier }, headers: { 'X-Admin-Token': t.adminToken } });
    expect(r.status).toBe(201);
    if (maxKeys !== undefined) {
      const set = await t.call(`/admin/accounts/${r.json.data.account_id}/max-keys`, {
        method: 'POST',
        body: { max_keys: maxKeys },
        headers: { 'X-Admin-Token': t.adminToken },
      });
      expect(set.status).toBe(200);
    }
    return r.json.data;
  }

  /** The keys that authenticate, by trying each (not by trusting the listing). */
  async function working(keys: Map<string, string>): Promise<string[]> {
    const out: string[] = [];
    for (const [id, key] of keys) if ((await t.call('/account/keys', { key })).status === 200) out.push(id);
    return out;
  }

  it('rotating the same pro key three times with a 72 h grace: the second and third are refused; two keys work', async () => {
    const a = await account('pro');
    const first = await t.call(`/account/keys/${a.id}/rotate`, { key: a.key, method: 'POST', body: { gracePeriodHours: 72 } });
    expect(first.status).toBe(200);
    const fresh = first.json.data.new_key;
    for (let i = 0; i < 2; i++) {
      const again = await t.call(`/account/keys/${a.id}/rotate`, { key: a.key, method: 'POST', body: { gracePeriodHours: 72 } });
      expect(again.status).toBe(403);
      expect(again.json.error).toMatchObject({ code: 'tier_restricted', max_keys: 1 });
    }
    // The new key cannot be rotated with a grace period either while the old one is in its grace.
    const chained = await t.call(`/account/keys/${fresh.id}/rotate`, { key: fresh.key, method: 'POST', body: { gracePeriodHours: 72 } });
    expect(chained.status).toBe(403);
    expect(
      await working(
        new Map([
          [a.id, a.key],
          [fresh.id, fresh.key],
        ]),
      ),
    ).toHaveLength(2);
    // Once the grace period is over, the new key rotates as usual.
    clock.advance(72 * 3_600_000);
    const later = await t.call(`/account/keys/${fresh.id}/rotate`, { key: fresh.key, method: 'POST', body: { gracePeriodHours: 1 } });
    expect(later.status).toBe(200);
    // Revoking the key in grace frees its place at once.
    const n = later.json.data.new_key;
    expect((await t.call(`/account/keys/${fresh.id}`, { key: n.key, method: 'DELETE' })).status).toBe(200);
    expect((await t.call(`/account/keys/${n.id}/rotate`, { key: n.key, method: 'POST', body: { gracePeriodHours: 1 } })).status).toBe(200);
  });

  it('a key in its grace period counts toward the limit of POST /account/keys', async () => {
    const a = await account('sharp');
    expect((await t.call(`/account/keys/${a.id}/rotate`, { key: a.key, method: 'POST', body: { gracePeriodHours: 24 } })).status).toBe(200);
    const r = await t.call('/account/keys', { key: a.key, method: 'POST', body: { name: 'third' } });
    expect(r.status).toBe(403);
    expect(r.json.error).toMatchObject({ code: 'tier_restricted', max_keys: 2 });
  });

  // Every tier's limit (and a per-account one), under every sequence of operations tried: creates and rotations
  // (grace 0 and 72 h) of each working key, through each working key, in rounds. The free tier's limit is hobby's
  // and pro's (1); its per-minute budget is too small for this walk on the shared rate-limit store.
  const LIMITS = [
    ...TIERS.filter((tier) => tier !== 'free').map((tier) => ({ tier, max: TABLE.byName[tier].maxKeys })),
    { tier: 'enterprise', max: 3 },
  ].filter((l) => l.max <= 3);
  it.each(LIMITS)(
    '$tier with at most $max keys: never more than max + 1 working keys, never more than max outside a grace',
    async ({ tier, max }) => {
      const own = tier === 'enterprise' ? max : undefined;
      const a = await account(tier, own);
      const keys = new Map<string, string>([[a.id, a.key]]);
      for (let round = 0; round < 4; round++) {
        for (const [id, key] of [...keys]) {
          const body = round % 2 ? { gracePeriodHours: 0 } : { gracePeriodHours: 72 };
          const caller = [...keys.values()].find((k) => k !== key) ?? key;
          const rot = await t.call(`/account/keys/${id}/rotate`, { key: caller, method: 'POST', body });
          if (rot.status === 200) keys.set(rot.json.data.new_key.id, rot.json.data.new_key.key);
          else expect([403, 404, 401]).toContain(rot.status);
          const created = await t.call('/account/keys', { key: caller, method: 'POST', body: {} });
          if (created.status === 201) keys.set(created.json.data.id, created.json.data.key);
          else expect([403, 401]).toContain(created.status);
          const live = await working(keys);
          expect(live.length).toBeLessThanOrEqual(max + 1);
          const listed = (await t.call('/account/keys', { key: keys.get(live[0]!)! })).json.data as Array<{
            id: string;
            expires_at: string | null;
          }>;
          expect(listed.map((k) => k.id).sort()).toEqual([...live].sort());
          expect(listed.filter((k) => k.expires_at === null).length).toBeLessThanOrEqual(max);
        }
        clock.advance(round === 1 ? 73 * 3_600_000 : 60_000);
      }
    },
  );

  it('concurrent rotations of one key and creations at the limit: the limit holds', async () => {
    const a = await account('enterprise', 1);
    const rotations = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.call(`/account/keys/${a.id}/rotate`, { key: a.key, method: 'POST', body: { gracePeriodHours: 72 } }),
      ),
    );
    expect(rotations.filter((r) => r.status === 200)).toHaveLength(1);
    const fresh = rotations.find((r) => r.status === 200)!.json.data.new_key;
    const creations = await Promise.all(
      Array.from({ length: 8 }, () => t.call('/account/keys', { key: fresh.key, method: 'POST', body: {} })),
    );
    expect(creations.filter((r) => r.status === 201)).toHaveLength(0);
    const listed = (await t.call('/account/keys', { key: fresh.key })).json.data;
    expect(listed).toHaveLength(2);
  });
});
