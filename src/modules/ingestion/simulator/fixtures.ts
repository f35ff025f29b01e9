/**
 * The fixture calendar: games by league on realistic local days and times, with real catalog
 * teams, generated day by day as time moves on. A team never plays twice within its league's
 * rest period (always >= 24 h, so never twice on one date).
 */

import type { Catalog, TeamDef } from '../../../config/catalog.js';
import { Rng } from './rng.js';
import { LEAGUES, gameDurationMs, type LeagueConfig } from './sports.js';
import { dayOfWeek, zonedToUtc } from './tz.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

export interface Fixture {
  uid: string;
  league: LeagueConfig;
  home: TeamDef;
  away: TeamDef;
  startTime: number;
  /** Uniform draw used to thin the calendar to the requested number of events. */
  u: number;
  /** Added so that games are in progress at the simulator's start. */
  forced: boolean;
}

export class Calendar {
  readonly fixtures: Fixture[] = [];
  private readonly rng: Rng;
  private readonly teamTimes = new Map<string, number[]>();
  private nextDay: number;
  readonly leagues: LeagueConfig[];

  constructor(
    private readonly catalog: Catalog,
    seed: number,
    fromMs: number,
  ) {
    this.rng = Rng.derive(seed, 'calendar');
    this.nextDay = Math.floor(fromMs / DAY);
    this.leagues = LEAGUES.filter((l) => catalog.teamsOf(l.id).length >= 2);
  }

  /** Generates whole days until `untilMs` is covered; returns the new fixtures. */
  ensure(untilMs: number): Fixture[] {
    const added: Fixture[] = [];
    while (this.nextDay * DAY <= untilMs + DAY) {
      const date = new Date(this.nextDay * DAY);
      const y = date.getUTCFullYear();
      const m = date.getUTCMonth() + 1;
      const d = date.getUTCDate();
      const dow = dayOfWeek(y, m, d);
      for (const league of this.leagues) {
        const slots = league.slots.filter((s) => s.dow === dow);
        if (slots.length === 0) continue;
        const times: number[] = [];
        for (const s of slots) {
          const [hh, mm] = s.time.split(':').map(Number) as [number, number];
          const t = zonedToUtc(y, m, d, hh, mm, league.tz);
          for (let i = 0; i < s.count; i++) times.push(t);
        }
        times.sort((a, b) => a - b);
        const teams = this.rng.shuffle([...this.catalog.teamsOf(league.id)]);
        const used = new Set<string>();
        for (const t of times) {
          const a = teams.find((x) => !used.has(x.id) && this.canPlay(x, t, league.restH));
          if (!a) continue;
          used.add(a.id);
          const b = teams.find((x) => !used.has(x.id) && this.canPlay(x, t, league.restH));
          if (!b) {
            used.delete(a.id);
            continue;
          }
          used.add(b.id);
          const swap = this.rng.chance(0.5);
          added.push(this.add(league, swap ? b : a, swap ? a : b, t, this.rng.next(), false));
        }
      }
      this.nextDay++;
    }
    return added;
  }

  canPlay(team: TeamDef, t: number, restH: number): boolean {
    const times = this.teamTimes.get(team.id);
    if (!times) return true;
    const rest = Math.max(24, restH) * HOUR;
    for (const x of times) if (Math.abs(x - t) < rest) return false;
    return true;
  }

  private add(league: LeagueConfig, home: TeamDef, away: TeamDef, startTime: number, u: number, forced: boolean): Fixture {
    const fx: Fixture = { uid: `${league.id}:${home.id}:${away.id}:${startTime}`, league, home, away, startTime, u, forced };
    this.fixtures.push(fx);
    for (const team of [home, away]) {
      const list = this.teamTimes.get(team.id) ?? [];
      list.push(startTime);
      this.teamTimes.set(team.id, list);
    }
    return fx;
  }

  /**
   * Adds games already in progress at `now` (started 10-70% of their length ago) until at least
   * `minLive` are running across at least `minSports` sports, preferring sports not yet live.
   */
  forceLive(now: number, live: Fixture[], minLive: number, minSports: number): Fixture[] {
    const added: Fixture[] = [];
    const sports = new Set(live.map((f) => f.league.sport));
    let count = live.length;
    const order = ['atp', 'nba', 'epl', 'nhl', 'wta', 'euroleague', 'la_liga', 'ncaab', 'bundesliga', 'serie_a', 'ligue_1', 'mls'];
    const candidates = order.map((id) => this.leagues.find((l) => l.id === id)).filter((l): l is LeagueConfig => l !== undefined);
    for (let round = 0; round < 4 && (count < minLive || sports.size < minSports); round++) {
      for (const league of candidates) {
        if (count >= minLive && sports.size >= minSports) break;
        if (round === 0 && sports.has(league.sport)) continue;
        const dur = gameDurationMs(league);
        const t = Math.round((now - dur * this.rng.range(0.1, 0.7)) / 300_000) * 300_000;
        const teams = this.rng.shuffle([...this.catalog.teamsOf(league.id)]);
        const a = teams.find((x) => this.canPlay(x, t, league.restH));
        const b = teams.find((x) => x !== a && this.canPlay(x, t, league.restH));
        if (!a || !b) continue;
        added.push(this.add(league, a, b, t, 0, true));
        sports.add(league.sport);
        count++;
      }
    }
    return added;
  }
}
