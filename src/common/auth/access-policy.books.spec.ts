import { describe, expect, it } from '@jest/globals';
import { Catalog } from '../../config/catalog.js';
import { readJson } from '../../config/paths.js';
import { loadTiers, type TierName } from '../../config/tiers.js';
import { ApiError } from '../http/api-error.js';
import type { Account } from './account.js';
import { AccessPolicy } from './access-policy.js';

/** Book resolution: which books a request covers, per tier, and every refusal. */
const policy = new AccessPolicy(loadTiers(), new Catalog());
const account = (tier: TierName): Account => ({
  keyId: `key_${tier}`,
  accountId: `acct_${tier}`,
  name: null,
  tier,
  arbitrageEnabled: true,
});

interface RawBook {
  id: string;
  requires_tier: string | null;
  unlisted?: boolean;
}
// Straight from the catalog file, in its order (the popularity order): the books any tier may name.
const books = readJson<RawBook[]>('config', 'catalog', 'sportsbooks.json');
const openListed = books.filter((b) => !b.unlisted && !b.requires_tier).map((b) => b.id);

function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('not refused');
}

describe('the books a request covers', () => {
  it("no sportsbook named: the tier's default set (free: DraftKings and FanDuel; hobby and pro: the most popular open books)", () => {
    const free = policy.resolveBooks(account('free'));
    expect([free.books, free.all, free.isDefault]).toEqual([['draftkings', 'fanduel'], false, true]);
    expect(policy.resolveBooks(account('hobby')).books).toEqual(openListed.slice(0, 5));
    expect(policy.resolveBooks(account('pro')).books).toEqual(openListed.slice(0, 15));
    // A keyless caller is judged as free.
    expect(policy.resolveBooks(undefined).books).toEqual(['draftkings', 'fanduel']);
  });

  it('sharp and enterprise cover every book, unlisted ones included', () => {
    for (const tier of ['sharp', 'enterprise'] as const) {
      const s = policy.resolveBooks(account(tier));
      expect(s.all).toBe(true);
      expect(s.books.sort()).toEqual(books.map((b) => b.id).sort());
      expect(s.has('pinnacle') && s.has('no_such_book')).toBe(true);
    }
  });

  it('named books are taken as named (once each, in catalog ids), up to the tier maximum', () => {
    const s = policy.resolveBooks(account('hobby'), ['fanduel', 'betmgm', 'fanduel']);
    expect([s.books, s.all, s.isDefault]).toEqual([['fanduel', 'betmgm'], false, false]);
    expect(s.has('fanduel') && !s.has('draftkings')).toBe(true);
  });

  it('an unknown book is 400 naming the parameter', () => {
    const e = refusal(() => policy.resolveBooks(account('pro'), ['nosuchbook']));
    expect([e.code, e.message, e.extras.parameter]).toEqual([
      'invalid_request',
      'Invalid parameter "sportsbook": unknown sportsbook "nosuchbook"',
      'sportsbook',
    ]);
    expect(refusal(() => policy.resolveBooks(account('pro'), [], ['nosuchbook'])).message).toMatch(/^Invalid parameter "add_sportsbook"/);
  });

  it('a book above the tier is 403 naming the book and the tier it needs', () => {
    const e = refusal(() => policy.resolveBooks(account('pro'), ['draftkings', 'pinnacle']));
    expect([e.code, e.extras.required_tier]).toEqual(['tier_restricted', 'sharp']);
    expect(e.message).toMatch(/\(pinnacle\) requires the sharp tier or higher; this key is on the pro tier$/);
    expect(policy.resolveBooks(account('sharp'), ['pinnacle']).books).toEqual(['pinnacle']);
  });

  it('more books than the tier allows is 403 with the maximum and the first tier that allows that many', () => {
    const free = refusal(() => policy.resolveBooks(account('free'), ['draftkings', 'fanduel', 'betmgm']));
    expect([free.code, free.extras.required_tier, free.extras.max_books]).toEqual(['tier_restricted', 'hobby', 2]);
    expect(free.message).toBe('The free tier covers at most 2 sportsbooks per request; this request names 3');
    const pro = refusal(() => policy.resolveBooks(account('pro'), openListed.slice(0, 16)));
    expect([pro.extras.required_tier, pro.extras.max_books]).toEqual(['sharp', 15]);
  });

  it('add_sportsbook adds to the default set, and the sum must fit the maximum', () => {
    const same = policy.resolveBooks(account('hobby'), undefined, ['draftkings']);
    expect(same.books.sort()).toEqual(openListed.slice(0, 5).sort());
    expect(refusal(() => policy.resolveBooks(account('free'), undefined, ['betmgm'])).extras.max_books).toBe(2);
    expect(policy.resolveBooks(account('sharp'), undefined, ['pinnacle']).all).toBe(true);
  });

  it('the data delay: 60 s on free, none above it', () => {
    expect((['free', 'hobby', 'pro', 'sharp', 'enterprise'] as const).map((t) => policy.delaySeconds(account(t)))).toEqual([
      60, 0, 0, 0, 0,
    ]);
  });
});
