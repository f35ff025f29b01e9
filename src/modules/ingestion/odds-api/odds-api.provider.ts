import { Logger } from '@nestjs/common';
import type { Catalog } from '../../../config/catalog.js';
import type { AppConfig } from '../../../config/env.js';
import type { OddsProvider, ProviderBatch, QuoteKey } from '../../../domain/types.js';
import { parseOddsApiEvents } from './odds-api-format.js';
import { parseOddsApiScores } from './odds-api-scores.js';

export interface OddsApiStatus {
  enabled: boolean;
  requestsRemaining: number | null;
  requestsUsed: number | null;
  lastCost: number | null;
  lastSuccessAt: number | null;
  lastError: string | null;
  backoffUntil: number | null;
  disabledSports: string[];
  unknownBooks: string[];
}

const MIN_BACKOFF_MS = 30_000;
const MAX_BACKOFF_MS = 30 * 60_000;
const QUOTA_PAUSE_MS = 3600_000;

function keyOf(k: QuoteKey & { externalEventId?: string | null }): string {
  return [
    k.book,
    k.externalEventId ?? `${k.homeTeam}|${k.awayTeam}|${k.startTime}`,
    k.marketType,
    k.period ?? 'game',
    k.selectionType,
    k.line ?? '',
    k.playerName ?? '',
  ].join('|');
}

/**
 * Polls The Odds API v4 (`/v4/sports/{sport}/odds`) for the configured sports, regions and markets.
 * Honours the quota headers (pauses when `x-requests-remaining` falls under ODDS_API_MIN_REMAINING), backs off
 * exponentially on 429, 5xx and network errors, stops on 401 (bad key) and drops a sport on 422. Prices that
 * disappear between polls are removed from the board.
 */
export class OddsApiProvider implements OddsProvider {
  readonly name = 'odds_api';
  readonly intervalMs: number;
  private readonly logger = new Logger('odds-api');
  private previous = new Map<string, Map<string, QuoteKey>>();
  private backoffMs = 0;
  readonly status: OddsApiStatus;

  /** When the odds were last polled, and the games the odds feed listed (id -> start) per sport. */
  private lastOddsAt: number | null = null;
  private readonly starts = new Map<string, Map<string, number>>();
  private readonly completed = new Set<string>();
  private readonly lastScoresAt = new Map<string, number>();

  constructor(
    private readonly catalog: Catalog,
    private readonly cfg: AppConfig['oddsApi'],
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    // Scores are polled on their own (shorter) interval while games are in progress; odds on theirs.
    const scores = cfg.scoresIntervalSeconds ? cfg.scoresIntervalSeconds : Number.POSITIVE_INFINITY;
    this.intervalMs = Math.min(cfg.intervalSeconds, scores) * 1000;
    this.status = {
      enabled: Boolean(cfg.key),
      requestsRemaining: null,
      requestsUsed: null,
      lastCost: null,
      lastSuccessAt: null,
      lastError: cfg.key ? null : 'ODDS_API_KEY is not set',
      backoffUntil: null,
      disabledSports: [],
      unknownBooks: [],
    };
  }

  start(now: number): Promise<ProviderBatch | null> {
    return this.poll(now);
  }

  private fail(now: number, message: string): void {
    this.backoffMs = this.backoffMs ? Math.min(this.backoffMs * 2, MAX_BACKOFF_MS) : MIN_BACKOFF_MS;
    this.status.backoffUntil = now + this.backoffMs;
    this.status.lastError = message;
    this.logger.warn({ msg: 'odds api request failed; backing off', error: message, retry_in_s: Math.round(this.backoffMs / 1000) });
  }

  async poll(now: number): Promise<ProviderBatch | null> {
    if (!this.status.enabled) return null;
    if (this.status.backoffUntil !== null && now < this.status.backoffUntil) return null;
    const batch: ProviderBatch = { source: this.name, quotes: [], removals: [] };
    let anyOk = false;
    const oddsDue = this.lastOddsAt === null || now - this.lastOddsAt >= this.cfg.intervalSeconds * 1000 - 500;
    for (const sport of oddsDue ? this.cfg.sports : []) {
      if (this.status.disabledSports.includes(sport)) continue;
      if (this.status.requestsRemaining !== null && this.status.requestsRemaining < this.cfg.minRemaining) {
        this.status.backoffUntil = now + QUOTA_PAUSE_MS;
        this.status.lastError = `quota nearly spent (${this.status.requestsRemaining} requests left, floor ${this.cfg.minRemaining}); pausing for an hour`;
        this.logger.warn({ msg: 'odds api quota low; pausing', remaining: this.status.requestsRemaining });
        break;
      }
      const url = new URL(`/v4/sports/${encodeURIComponent(sport)}/odds`, this.cfg.baseUrl);
      url.searchParams.set('apiKey', this.cfg.key!);
      url.searchParams.set('regions', this.cfg.regions.join(','));
      // Outright sport keys (`basketball_nba_championship_winner`) only have the `outrights` market.
      url.searchParams.set('markets', /_(winner|championship)$/.test(sport) ? 'outrights' : this.cfg.markets.join(','));
      url.searchParams.set('oddsFormat', 'decimal');
      url.searchParams.set('dateFormat', 'iso');
      let res: Response;
      try {
        res = await this.fetchImpl(url, { signal: AbortSignal.timeout(15_000) });
      } catch (err) {
        this.fail(now, `network error: ${(err as Error).message}`);
        return anyOk ? batch : null;
      }
      const h = (n: string) => {
        const v = res.headers.get(n);
        return v === null || v === '' || Number.isNaN(Number(v)) ? null : Number(v);
      };
      this.status.requestsRemaining = h('x-requests-remaining') ?? this.status.requestsRemaining;
      this.status.requestsUsed = h('x-requests-used') ?? this.status.requestsUsed;
      this.status.lastCost = h('x-requests-last') ?? this.status.lastCost;
      if (res.status === 401) {
        this.status.enabled = false;
        this.status.lastError = 'the upstream rejected ODDS_API_KEY (401); the poller has stopped';
        this.logger.error({ msg: 'odds api rejected the key; poller stopped' });
        return null;
      }
      if (res.status === 422) {
        this.status.disabledSports.push(sport);
        this.logger.warn({ msg: 'odds api refused a parameter (422); sport dropped', sport, body: (await res.text()).slice(0, 200) });
        continue;
      }
      if (res.status === 429 || res.status >= 500) {
        this.fail(now, `HTTP ${res.status}`);
        return anyOk ? batch : null;
      }
      if (!res.ok) {
        this.fail(now, `HTTP ${res.status}`);
        continue;
      }
      let json: unknown;
      try {
        json = await res.json();
      } catch {
        this.fail(now, 'response is not JSON');
        continue;
      }
      anyOk = true;
      const parsed = parseOddsApiEvents(json, this.catalog, { oddsFormat: 'decimal', now });
      for (const b of parsed.unknownBooks) if (!this.status.unknownBooks.includes(b)) this.status.unknownBooks.push(b);
      const current = new Map<string, QuoteKey>();
      const starts = new Map<string, number>();
      for (const { quote } of parsed.quotes) {
        if (quote.externalEventId) starts.set(quote.externalEventId, quote.startTime);
        batch.quotes.push(quote);
        const { price: _p, isLive: _l, isActive: _a, sourceTime: _s, ...key } = quote;
        current.set(keyOf(quote), key);
      }
      for (const [k, key] of this.previous.get(sport) ?? []) if (!current.has(k)) batch.removals!.push(key);
      this.previous.set(sport, current);
      this.starts.set(sport, starts);
    }
    if (oddsDue && anyOk) this.lastOddsAt = now;
    if (await this.pollScores(now, batch)) anyOk = true;
    if (anyOk) {
      this.backoffMs = 0;
      if (this.status.backoffUntil !== null && now >= this.status.backoffUntil) this.status.backoffUntil = null;
      this.status.lastSuccessAt = now;
      this.status.lastError = null;
    }
    return anyOk ? batch : null;
  }

  /**
   * Scores (`/v4/sports/{sport}/scores?daysFrom=1`, 2 requests of quota each) for the sports with a game in
   * progress: one the odds feed listed that started in the last 6 hours and is not known to be completed.
   * Quota-aware as the odds poll (nothing under ODDS_API_MIN_REMAINING); errors back off the same way.
   * Live games get their score; completed ones end with the final score (what grades the CLV record).
   */
  private async pollScores(now: number, batch: ProviderBatch): Promise<boolean> {
    const every = this.cfg.scoresIntervalSeconds;
    if (!every) return false;
    let ok = false;
    for (const sport of this.cfg.sports) {
      if (this.status.disabledSports.includes(sport)) continue;
      if (now - (this.lastScoresAt.get(sport) ?? 0) < every * 1000 - 500) continue;
      const inProgress = [...(this.starts.get(sport) ?? new Map<string, number>())].some(
        ([id, t]) => t <= now && now - t < 6 * 3600_000 && !this.completed.has(id),
      );
      if (!inProgress) continue;
      if (this.status.requestsRemaining !== null && this.status.requestsRemaining < this.cfg.minRemaining) return ok;
      const url = new URL(`/v4/sports/${encodeURIComponent(sport)}/scores`, this.cfg.baseUrl);
      url.searchParams.set('apiKey', this.cfg.key!);
      url.searchParams.set('daysFrom', '1');
      url.searchParams.set('dateFormat', 'iso');
      this.lastScoresAt.set(sport, now);
      let res: Response;
      try {
        res = await this.fetchImpl(url, { signal: AbortSignal.timeout(15_000) });
      } catch (err) {
        this.fail(now, `scores: network error: ${(err as Error).message}`);
        return ok;
      }
      const h = (n: string) => {
        const v = res.headers.get(n);
        return v === null || v === '' || Number.isNaN(Number(v)) ? null : Number(v);
      };
      this.status.requestsRemaining = h('x-requests-remaining') ?? this.status.requestsRemaining;
      this.status.requestsUsed = h('x-requests-used') ?? this.status.requestsUsed;
      if (res.status === 429 || res.status >= 500) {
        this.fail(now, `scores: HTTP ${res.status}`);
        return ok;
      }
      if (!res.ok) {
        this.logger.warn({ msg: 'odds api scores request refused', sport, status: res.status });
        continue;
      }
      let json: unknown;
      try {
        json = await res.json();
      } catch {
        continue;
      }
      const updates = parseOddsApiScores(json);
      for (const u of updates) if (u.status === 'ended' && u.externalEventId) this.completed.add(u.externalEventId);
      if (updates.length) (batch.events ??= []).push(...updates);
      ok = true;
    }
    return ok;
  }
}
