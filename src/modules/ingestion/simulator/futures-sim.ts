import type { Catalog, TeamDef } from '../../../config/catalog.js';
import type { FutureTag, FutureType } from '../../../domain/futures.js';
import type { OddsProvider, ProviderBatch, Quote } from '../../../domain/types.js';
import { normalCdf } from '../../../math/normal.js';
import { hashString, Rng } from './rng.js';

/**
 * The simulator's futures markets (a provider of its own, beside the game simulator): for the major leagues,
 * the championship, conference and division winners, the MVP, season win totals (over/under) and "to make the
 * playoffs" (yes/no), quoted at several books with realistic holds and drifting slowly.
 *
 * Each team's strength is its catalog rating; a runner's true probability is a softmax of it (players: their
 * main stat and their team). The true logits take a small random walk every poll (slow drift). Each book prices
 * its own view (true probability times a per-book, per-runner error) with its margin spread the way books do:
 * heavier on long shots (implied = p^k, k < 1, summing to 1 + hold), American prices rounded against the bettor.
 * Sharp books reprice every poll, retail books now and then (they lag).
 */

interface LeagueSpec {
  id: string;
  /** Month (1-12) and day the season's futures settle. */
  closes: [number, number];
  games: number;
  /** Softmax scale of rating points for titles (higher = more open). */
  scale: number;
  /** Elo scale for a team's win percentage. */
  elo: number;
  /** Wins needed to make the playoffs, with its spread. */
  cutoff: number;
  cutoffSd: number;
  /** The player award: its stat (players.json props), market kind and name. */
  mvpStat: string;
  award: { kind: string; name: string };
  conferenceLabel: string;
}

const LEAGUES: LeagueSpec[] = [
  {
    id: 'nba',
    closes: [6, 20],
    games: 82,
    scale: 38,
    elo: 190,
    cutoff: 42,
    cutoffSd: 3.5,
    mvpStat: 'points',
    award: { kind: 'mvp', name: 'MVP' },
    conferenceLabel: 'Conference',
  },
  {
    id: 'nfl',
    closes: [2, 10],
    games: 17,
    scale: 55,
    elo: 260,
    cutoff: 9.5,
    cutoffSd: 1,
    mvpStat: 'pass_yards',
    award: { kind: 'mvp', name: 'MVP' },
    conferenceLabel: 'Conference',
  },
  {
    id: 'nhl',
    closes: [6, 20],
    games: 82,
    scale: 70,
    elo: 300,
    cutoff: 44,
    cutoffSd: 3,
    mvpStat: 'points',
    award: { kind: 'mvp', name: 'Hart Trophy (MVP)' },
    conferenceLabel: 'Conference',
  },
  {
    id: 'mlb',
    closes: [11, 1],
    games: 162,
    scale: 60,
    elo: 320,
    cutoff: 87,
    cutoffSd: 4,
    mvpStat: 'total_bases',
    award: { kind: 'mvp', name: 'MVP' },
    conferenceLabel: 'League',
  },
  {
    id: 'epl',
    closes: [5, 25],
    games: 38,
    scale: 32,
    elo: 180,
    cutoff: 0,
    cutoffSd: 0,
    mvpStat: 'goals',
    award: { kind: 'top_scorer', name: 'Golden Boot (top scorer)' },
    conferenceLabel: '',
  },
];

interface BookSpec {
  id: string;
  /** Hold on an n-way outright of 30 runners (scaled by the field size), and on a two-way market. */
  nwayHold: number;
  twoWayHold: number;
  /** Spread of the book's own view around the truth (log-odds). */
  error: number;
  /** Chance per poll that it reprices. */
  reprice: number;
  /** Only the championship (prediction markets). */
  championshipOnly?: boolean;
}

const BOOKS: BookSpec[] = [
  { id: 'pinnacle', nwayHold: 0.09, twoWayHold: 0.03, error: 0.03, reprice: 1 },
  { id: 'circa', nwayHold: 0.14, twoWayHold: 0.04, error: 0.04, reprice: 0.7 },
  { id: 'draftkings', nwayHold: 0.28, twoWayHold: 0.045, error: 0.12, reprice: 0.25 },
  { id: 'fanduel', nwayHold: 0.3, twoWayHold: 0.045, error: 0.12, reprice: 0.25 },
  { id: 'betmgm', nwayHold: 0.36, twoWayHold: 0.05, error: 0.14, reprice: 0.2 },
  { id: 'caesars', nwayHold: 0.38, twoWayHold: 0.05, error: 0.14, reprice: 0.2 },
  { id: 'bet365', nwayHold: 0.26, twoWayHold: 0.045, error: 0.1, reprice: 0.3 },
  { id: 'betrivers', nwayHold: 0.34, twoWayHold: 0.05, error: 0.14, reprice: 0.15 },
  { id: 'polymarket', nwayHold: 0.03, twoWayHold: 0.02, error: 0.06, reprice: 0.6, championshipOnly: true },
  { id: 'kalshi', nwayHold: 0.04, twoWayHold: 0.02, error: 0.06, reprice: 0.6, championshipOnly: true },
];

/** A runner of an n-way market, or the drifting shift of a two-way subject (its log-odds). */
interface Runner {
  name: string;
  logit: number;
}

interface SimMarket {
  league: string;
  tag: FutureTag;
  closesAt: number;
  twoWay: boolean;
  runners: Runner[];
  /** Two-way markets: the runner subjects with their mean and spread (win totals, playoffs). */
  subjects?: Array<{ name: string; mean: number; sd: number; line: number | null; kind: 'ou' | 'yn' }>;
}

/** The next time a month/day (UTC, 00:00) comes after `now`. */
export function nextClose(now: number, month: number, day: number): number {
  const y = new Date(now).getUTCFullYear();
  const t = Date.UTC(y, month - 1, day);
  return t > now + 7 * 86400_000 ? t : Date.UTC(y + 1, month - 1, day);
}

function softmax(logits: number[]): number[] {
  const m = Math.max(...logits);
  const e = logits.map((l) => Math.exp(l - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}

/** Spreads a margin over true probabilities as books do: implied = p^k (k <= 1) with sum 1 + hold. */
export function withMargin(p: readonly number[], hold: number): number[] {
  const target = 1 + hold;
  let lo = 0.3;
  let hi = 1;
  for (let i = 0; i < 40; i++) {
    const k = (lo + hi) / 2;
    const s = p.reduce((a, x) => a + x ** k, 0);
    if (s > target) lo = k;
    else hi = k;
  }
  const k = (lo + hi) / 2;
  return p.map((x) => x ** k);
}

/** A price from an implied probability, rounded to the steps books use, never paying more than implied. */
export function bookPrice(implied: number): number {
  const p = Math.min(0.995, Math.max(0.0005, implied));
  if (p > 0.5) {
    const a = (-100 * p) / (1 - p);
    const step = a > -200 ? 5 : a > -1000 ? 10 : 50;
    return -Math.ceil(-a / step - 1e-9) * step;
  }
  const a = (100 * (1 - p)) / p;
  const step = a < 200 ? 5 : a < 1000 ? 25 : a < 5000 ? 100 : 500;
  return Math.max(100, Math.floor(a / step + 1e-9) * step);
}

/**
 * The simulator sends its whole state (every book's current price, changed or not) this often, so a price it still
 * quotes is confirmed within the futures staleness window (FUTURES_STALE_MS, 30 minutes); between times, only changes.
 */
export const FULL_STATE_EVERY_MS = 10 * 60_000;

export class FuturesSimulator implements OddsProvider {
  readonly name = 'simulator-futures';
  readonly intervalMs: number;
  private markets: SimMarket[] = [];
  /** Each book's current price per market runner (only changes are sent). */
  private readonly quoted = new Map<string, number>();
  /** Each book's last quote per market runner (re-sent with the whole state). */
  private readonly lastQuote = new Map<string, Quote>();
  private fullStateAt = 0;
  private readonly rng: Rng;

  constructor(
    private readonly catalog: Catalog,
    private readonly opts: { seed: number; intervalMs?: number },
  ) {
    this.intervalMs = opts.intervalMs ?? 60_000;
    this.rng = Rng.derive(opts.seed, 'futures');
  }

  start(now: number): ProviderBatch {
    this.markets = LEAGUES.flatMap((l) => this.build(l, now));
    this.fullStateAt = now;
    return { source: this.name, quotes: this.quotes(now, true) };
  }

  poll(now: number): ProviderBatch | null {
    if (!this.markets.length) return this.start(now);
    // Slow drift: every runner's log-odds take a small step (about 1% of probability an hour for a favourite).
    for (const m of this.markets) for (const r of m.runners) r.logit += this.rng.range(-0.02, 0.02);
    const quotes = this.quotes(now, false);
    if (now - this.fullStateAt >= FULL_STATE_EVERY_MS) {
      // The whole state: every price not changed in this poll, confirmed as it stands.
      this.fullStateAt = now;
      const sent = new Set(quotes.map((q) => this.keyOf(q.book, q.future!.market, q.league, q.selection)));
      for (const [k, q] of this.lastQuote) if (!sent.has(k)) quotes.push({ ...q, sourceTime: now });
    }
    return quotes.length ? { source: this.name, quotes } : null;
  }

  private build(l: LeagueSpec, now: number): SimMarket[] {
    const league = this.catalog.league(l.id);
    const teams = this.catalog.teamsOf(l.id);
    if (!league || teams.length < 4) return [];
    const closesAt = nextClose(now, l.closes[0], l.closes[1]);
    const season = new Date(closesAt).getUTCFullYear();
    const label = league.label || league.name;
    const mean = teams.reduce((a, t) => a + t.rating, 0) / teams.length;
    // Each team's strength this season: its rating plus a seeded season-long shift.
    const strength = new Map(teams.map((t) => [t.id, t.rating + ((hashString(`${t.id}|${season}`, this.opts.seed) % 41) - 20)]));
    const logitOf = (t: TeamDef) => (strength.get(t.id)! - mean) / l.scale;
    const out: SimMarket[] = [];
    const nway = (key: string, name: string, kind: string, type: FutureType, runners: Runner[]) =>
      out.push({ league: l.id, tag: { market: `${key}_${season}`, name, type, kind }, closesAt, twoWay: false, runners });
    nway(
      'championship_winner',
      `${label} Championship winner ${season}`,
      'championship_winner',
      'TEAM',
      teams.map((t) => ({ name: t.name, logit: logitOf(t) })),
    );
    if (l.conferenceLabel) {
      for (const conf of [...new Set(teams.map((t) => t.conference).filter((c): c is string => !!c))]) {
        const ts = teams.filter((t) => t.conference === conf);
        nway(
          `conference_winner_${conf.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`,
          `${label} ${conf} ${l.conferenceLabel} winner ${season}`,
          'conference_winner',
          'TEAM',
          ts.map((t) => ({ name: t.name, logit: logitOf(t) })),
        );
      }
      for (const div of [...new Set(teams.map((t) => t.division).filter((d): d is string => !!d))]) {
        const ts = teams.filter((t) => t.division === div);
        nway(
          `division_winner_${div.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`,
          `${label} ${div} division winner ${season}`,
          'division_winner',
          'TEAM',
          ts.map((t) => ({ name: t.name, logit: logitOf(t) * 1.4 })),
        );
      }
    }
    const players = this.catalog.players.filter((p) => p.league === l.id && p.props[l.mvpStat] !== undefined);
    if (players.length >= 6) {
      const stats = players.map((p) => p.props[l.mvpStat]!);
      const sm = stats.reduce((a, b) => a + b, 0) / stats.length;
      const sd = Math.sqrt(stats.reduce((a, b) => a + (b - sm) ** 2, 0) / stats.length) || 1;
      const team = new Map(teams.map((t) => [t.id, t]));
      const runners = players.map((p) => ({
        name: p.name,
        logit: ((p.props[l.mvpStat]! - sm) / sd) * 1.3 + (team.get(p.team) ? logitOf(team.get(p.team)!) * 0.8 : 0),
      }));
      runners.sort((a, b) => b.logit - a.logit);
      nway(l.award.kind, `${label} ${l.award.name} ${season}`, l.award.kind, 'PLAYER', runners.slice(0, 20));
    }
    // Season wins: a team's expected wins from its strength; the line at the nearest half win.
    const expected = (t: TeamDef) => l.games / (1 + 10 ** (-(strength.get(t.id)! - mean) / l.elo));
    // Binomial spread of a season's wins, widened for what a season brings (injuries, trades).
    const sdWins = Math.sqrt(l.games * 0.25) * 1.15;
    out.push({
      league: l.id,
      tag: { market: `win_total_${season}`, name: `${label} regular season wins ${season}`, type: 'OVER_UNDER', kind: 'win_total' },
      closesAt,
      twoWay: true,
      runners: [],
      subjects: teams.map((t) => ({
        name: t.name,
        mean: expected(t),
        sd: sdWins,
        line: Math.round(expected(t) + this.rng.range(-0.6, 0.6)) + 0.5,
        kind: 'ou' as const,
      })),
    });
    if (l.cutoff) {
      out.push({
        league: l.id,
        tag: { market: `make_playoffs_${season}`, name: `${label} to make the playoffs ${season}`, type: 'YES_NO', kind: 'make_playoffs' },
        closesAt,
        twoWay: true,
        runners: [],
        subjects: teams.map((t) => ({
          name: t.name,
          mean: expected(t),
          sd: Math.hypot(sdWins, l.cutoffSd),
          line: l.cutoff,
          kind: 'yn' as const,
        })),
      });
    }
    // The two-way markets drift through one logit per subject.
    for (const m of out) if (m.subjects) m.runners = m.subjects.map((s) => ({ name: s.name, logit: 0 }));
    return out;
  }

  private quotes(now: number, all: boolean): Quote[] {
    const out: Quote[] = [];
    for (const m of this.markets) {
      const truth = m.twoWay ? null : softmax(m.runners.map((r) => r.logit));
      for (const b of BOOKS) {
        if (b.championshipOnly && m.tag.kind !== 'championship_winner') continue;
        if (!all && !this.rng.chance(b.reprice)) continue;
        const bucket = Math.floor(now / (6 * 3600_000));
        const err = (name: string) => this.bookError(`${b.id}|${m.tag.market}|${name}`, bucket) * b.error;
        if (truth) {
          const view = truth.map((p, i) => p * Math.exp(err(m.runners[i]!.name)));
          const vs = view.reduce((a, x) => a + x, 0);
          const hold = b.nwayHold * Math.min(1.3, Math.max(0.5, m.runners.length / 30));
          const implied = withMargin(
            view.map((x) => x / vs),
            hold,
          );
          m.runners.forEach((r, i) => this.push(out, m, b.id, r.name, 'other', null, bookPrice(implied[i]!), now, all));
        } else {
          m.subjects!.forEach((s, i) => {
            const drift = m.runners[i]!.logit;
            const z = (s.line! - s.mean) / s.sd;
            let pYes = 1 - normalCdf(z);
            // Books disagree less on a two-way line than on a long shot's price.
            pYes = 1 / (1 + Math.exp(-(Math.log(pYes / (1 - pYes)) + drift + 0.5 * err(s.name))));
            pYes = Math.min(0.97, Math.max(0.03, pYes));
            const [a, c] = withMargin([pYes, 1 - pYes], b.twoWayHold);
            if (s.kind === 'ou') {
              this.push(out, m, b.id, `${s.name} Over`, 'over', s.line, bookPrice(a!), now, all);
              this.push(out, m, b.id, `${s.name} Under`, 'under', s.line, bookPrice(c!), now, all);
            } else {
              this.push(out, m, b.id, `${s.name}: Yes`, 'yes', null, bookPrice(a!), now, all);
              this.push(out, m, b.id, `${s.name}: No`, 'no', null, bookPrice(c!), now, all);
            }
          });
        }
      }
    }
    return out;
  }

  private readonly errors = new Map<string, number>();
  private errorBucket = -1;

  /** A book's own error on a runner, in -1..1: fixed for six hours, then drawn again (its traders re-rate). */
  private bookError(key: string, bucket: number): number {
    if (bucket !== this.errorBucket) {
      this.errors.clear();
      this.errorBucket = bucket;
    }
    let e = this.errors.get(key);
    if (e === undefined) this.errors.set(key, (e = (hashString(`${key}|${bucket}`, this.opts.seed) % 2001) / 1000 - 1));
    return e;
  }

  private push(
    out: Quote[],
    m: SimMarket,
    book: string,
    selection: string,
    side: string,
    line: number | null,
    american: number,
    now: number,
    all: boolean,
  ): void {
    const k = this.keyOf(book, m.tag.market, m.league, selection);
    if (!all && this.quoted.get(k) === american) return;
    this.quoted.set(k, american);
    const q: Quote = {
      book,
      league: m.league,
      homeTeam: '',
      awayTeam: '',
      startTime: m.closesAt,
      approximateStart: true,
      marketType: m.tag.kind,
      selection,
      selectionType: side,
      line,
      price: { american },
      sourceTime: now,
      future: m.tag,
    };
    this.lastQuote.set(k, q);
    out.push(q);
  }

  private keyOf(book: string, market: string, league: string, selection: string): string {
    return `${book}|${market}|${league}|${selection}`;
  }
}
