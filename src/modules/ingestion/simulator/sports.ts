/**
 * Sport and league parameters of the simulator: weekly fixture slots, rating scales, scoring
 * levels, game timelines and the size of line moves. Numbers are rough real-world averages.
 */

export type SimSport = 'basketball' | 'football' | 'hockey' | 'soccer' | 'tennis' | 'mma';

/** `count` games at local time `time` ('HH:MM') on weekday `dow` (0 = Sunday). */
export interface Slot {
  dow: number;
  time: string;
  count: number;
}

/** One part of a game's timeline: a period that is played, or a break. */
export interface Segment {
  /** Period label for game_period (Q1, 2H, P3, ...). */
  label: string;
  /** Game minutes played in the segment (0 for breaks). */
  gameMin: number;
  /** Wall-clock minutes the segment lasts. */
  wallMin: number;
}

export interface LeagueConfig {
  id: string;
  sport: SimSport;
  /** Time zone of the local kick-off times in `slots`. */
  tz: string;
  slots: Slot[];
  /** Books post a fixture this many hours before it starts (capped at the simulator's `days`). */
  horizonH: number;
  /** Minimum hours between two games of one team (>= 24: never two games on one date). */
  restH: number;
  /** Rating (Elo) points per point/goal of expected margin; tennis and MMA: per logit unit. */
  eloPerPoint: number;
  /** Home advantage in points/goals (logit for tennis/MMA). */
  homeAdv: number;
  /** Per-event form noise on the expected margin (sd, same unit). */
  formSd: number;
  /** League average total (points, goals; tennis: unused). */
  avgTotal: number;
  /** Per-event deviation of the total (sd). */
  totalSd: number;
  /** sd override for marginPmf / totalPmf (normal-based sports). */
  marginSd?: number;
  totalPmfSd?: number;
  /** Regulation timeline (periods and breaks); tennis/MMA use their own engines. */
  timeline: Segment[];
  /** Overtime period (if regulation ends level), or null (soccer league games end level). */
  overtime: Segment | null;
  /** Player prop statistics quoted for this league: catalog prop key -> market type. */
  props: Record<string, string>;
}

export interface SportConfig {
  /** Typical final-margin sd: scales book biases on spreads. */
  marginScale: number;
  totalScale: number;
  /** Pregame random-walk step sd of the expected margin and total (per step). */
  stepMu: number;
  stepT: number;
  /** Seconds between live fair-value refreshes. */
  liveTickS: number;
  /** Spread ladder steps books choose from (points); totals likewise. */
  spreadSteps: number[];
  totalSteps: number[];
  /** Points per scoring play and their weights (period sports). */
  plays: Array<[points: number, weight: number]>;
  /** Probability that books suspend around a scoring play. */
  suspendOnScore: number;
}

export const SPORTS: Record<SimSport, SportConfig> = {
  basketball: {
    marginScale: 12,
    totalScale: 18,
    stepMu: 0.16,
    stepT: 0.3,
    liveTickS: 15,
    spreadSteps: [1, 2],
    totalSteps: [2, 3],
    plays: [
      [2, 0.62],
      [3, 0.27],
      [1, 0.11],
    ],
    suspendOnScore: 0.12,
  },
  football: {
    marginScale: 13.5,
    totalScale: 13.4,
    stepMu: 0.12,
    stepT: 0.2,
    liveTickS: 20,
    spreadSteps: [1, 2],
    totalSteps: [1, 2, 3],
    plays: [
      [7, 0.55],
      [3, 0.38],
      [6, 0.03],
      [8, 0.02],
      [2, 0.02],
    ],
    suspendOnScore: 1,
  },
  hockey: {
    marginScale: 2.3,
    totalScale: 2.4,
    stepMu: 0.018,
    stepT: 0.022,
    liveTickS: 20,
    spreadSteps: [1],
    totalSteps: [1],
    plays: [[1, 1]],
    suspendOnScore: 1,
  },
  soccer: {
    marginScale: 1.7,
    totalScale: 1.7,
    stepMu: 0.016,
    stepT: 0.018,
    liveTickS: 20,
    spreadSteps: [1],
    totalSteps: [1],
    plays: [[1, 1]],
    suspendOnScore: 1,
  },
  tennis: {
    marginScale: 5,
    totalScale: 4.5,
    stepMu: 0.008,
    stepT: 0,
    liveTickS: 0,
    spreadSteps: [1, 1.5],
    totalSteps: [1],
    plays: [[1, 1]],
    suspendOnScore: 0.15,
  },
  mma: {
    marginScale: 1,
    totalScale: 1,
    stepMu: 0.025,
    stepT: 0,
    liveTickS: 15,
    spreadSteps: [1],
    totalSteps: [1],
    plays: [[1, 1]],
    suspendOnScore: 1,
  },
};

const days = (spec: Record<number, string[]>): Slot[] => {
  const out: Slot[] = [];
  for (const [dow, times] of Object.entries(spec)) {
    const counts = new Map<string, number>();
    for (const t of times) counts.set(t, (counts.get(t) ?? 0) + 1);
    for (const [time, count] of counts) out.push({ dow: Number(dow), time, count });
  }
  return out;
};
const rep = (t: string, n: number): string[] => Array.from({ length: n }, () => t);

const quarters = (label: string, n: number, gameMin: number, wallMin: number, breaks: number[]): Segment[] => {
  const out: Segment[] = [];
  for (let i = 0; i < n; i++) {
    out.push({ label: `${label}${i + 1}`, gameMin, wallMin });
    const b = breaks[i];
    if (b !== undefined && i < n - 1) out.push({ label: n === 4 && i === 1 ? 'HT' : `${label}${i + 1}`, gameMin: 0, wallMin: b });
  }
  return out;
};

const halves = (gameMin: number, wallMin: [number, number], ht: number): Segment[] => [
  { label: '1H', gameMin, wallMin: wallMin[0] },
  { label: 'HT', gameMin: 0, wallMin: ht },
  { label: '2H', gameMin, wallMin: wallMin[1] },
];

const NBA_PROPS = { points: 'player_points', rebounds: 'player_rebounds', assists: 'player_assists' };
const NFL_PROPS = { pass_yards: 'player_pass_yards', rush_yards: 'player_rush_yards', receiving_yards: 'player_receiving_yards' };
const NHL_PROPS = { shots_on_goal: 'player_shots_on_goal' };
const SOCCER_PROPS = { shots: 'player_shots' };

const soccer = (
  id: string,
  tz: string,
  slots: Slot[],
  avgTotal: number,
  homeAdv = 0.3,
  props: Record<string, string> = SOCCER_PROPS,
): LeagueConfig => ({
  id,
  sport: 'soccer',
  tz,
  slots,
  horizonH: 168,
  restH: 60,
  eloPerPoint: 260,
  homeAdv,
  formSd: 0.12,
  avgTotal,
  totalSd: 0.22,
  timeline: halves(45, [47, 50], 15),
  overtime: null,
  props,
});

/** Leagues the simulator schedules (MLB and WNBA are off-season). */
export const LEAGUES: LeagueConfig[] = [
  {
    id: 'nba',
    sport: 'basketball',
    tz: 'America/New_York',
    slots: days({
      0: ['15:30', '18:00', '18:00', '19:00', '19:00', '21:00', '21:00'],
      1: [...rep('19:00', 3), '19:30', '19:30', '20:00', '22:00', '22:00'],
      2: ['19:30', '19:30', '20:00', '22:00', '22:00'],
      3: [...rep('19:00', 3), ...rep('19:30', 3), '20:00', '20:00', '22:00', '22:00'],
      4: ['19:30', '19:30', '20:00', '22:00', '22:00'],
      5: [...rep('19:00', 3), '19:30', '19:30', '20:00', '20:00', '22:00', '22:00'],
      6: ['17:00', '19:00', '19:00', '20:00', '20:00', '21:00', '22:30'],
    }),
    horizonH: 30,
    restH: 24,
    eloPerPoint: 28,
    homeAdv: 2.2,
    formSd: 1.6,
    avgTotal: 229,
    totalSd: 5,
    timeline: quarters('Q', 4, 12, 29, [2.5, 15, 2.5]),
    overtime: { label: 'OT', gameMin: 5, wallMin: 12 },
    props: NBA_PROPS,
  },
  {
    id: 'ncaab',
    sport: 'basketball',
    tz: 'America/New_York',
    slots: days({
      0: ['13:00', '15:00'],
      1: ['19:00'],
      2: ['19:00', '19:00', '21:00', '21:00'],
      3: ['19:00', '19:00', '21:00', '21:00'],
      4: ['19:00', '21:00'],
      5: ['19:00'],
      6: ['12:00', '12:00', '14:00', '14:00', '16:00', '18:00'],
    }),
    horizonH: 40,
    restH: 40,
    eloPerPoint: 24,
    homeAdv: 3.2,
    formSd: 2,
    avgTotal: 146,
    totalSd: 6,
    marginSd: 11,
    totalPmfSd: 16,
    timeline: halves(20, [55, 58], 18),
    overtime: { label: 'OT', gameMin: 5, wallMin: 13 },
    props: {},
  },
  {
    id: 'euroleague',
    sport: 'basketball',
    tz: 'Europe/Madrid',
    slots: days({
      2: ['19:00', '20:30'],
      3: ['19:00', '20:30'],
      4: ['18:30', '19:00', '20:00', '20:30', '20:45'],
      5: ['18:30', '20:00', '20:00', '20:30', '20:45'],
    }),
    horizonH: 72,
    restH: 40,
    eloPerPoint: 30,
    homeAdv: 3,
    formSd: 1.8,
    avgTotal: 163,
    totalSd: 5,
    marginSd: 11,
    totalPmfSd: 15,
    timeline: quarters('Q', 4, 10, 25, [2, 15, 2]),
    overtime: { label: 'OT', gameMin: 5, wallMin: 12 },
    props: {},
  },
  {
    id: 'nfl',
    sport: 'football',
    tz: 'America/New_York',
    slots: days({ 4: ['20:15'], 0: [...rep('13:00', 8), '16:05', '16:05', '16:25', '16:25', '20:20'], 1: ['20:15'] }),
    horizonH: 168,
    restH: 100,
    eloPerPoint: 25,
    homeAdv: 1.6,
    formSd: 1.5,
    avgTotal: 44.5,
    totalSd: 3.5,
    timeline: quarters('Q', 4, 15, 42, [2, 13, 2]),
    overtime: { label: 'OT', gameMin: 10, wallMin: 25 },
    props: NFL_PROPS,
  },
  {
    id: 'ncaaf',
    sport: 'football',
    tz: 'America/New_York',
    slots: days({ 5: ['19:00'], 6: [...rep('12:00', 3), ...rep('15:30', 3), '19:00', '19:00', '19:30', '19:30', '22:30'] }),
    horizonH: 168,
    restH: 100,
    eloPerPoint: 18,
    homeAdv: 2.6,
    formSd: 2.5,
    avgTotal: 53,
    totalSd: 6,
    marginSd: 16,
    totalPmfSd: 16,
    timeline: quarters('Q', 4, 15, 47, [2, 20, 2]),
    overtime: { label: 'OT', gameMin: 8, wallMin: 20 },
    props: {},
  },
  {
    id: 'nhl',
    sport: 'hockey',
    tz: 'America/New_York',
    slots: days({
      0: ['15:00', '17:00', '19:00', '19:00', '20:00'],
      1: ['19:00', '19:00', '19:30', '22:00'],
      2: [...rep('19:00', 3), '19:30', '19:30', '20:00', '20:00', '22:00', '22:00'],
      3: ['19:30', '19:30', '20:00', '22:00'],
      4: [...rep('19:00', 3), '19:30', '19:30', '20:00', '20:00', '22:00', '22:00'],
      5: ['19:00', '19:00', '20:00', '22:00'],
      6: ['13:00', '15:00', '16:00', ...rep('19:00', 4), '20:00', '20:00', ...rep('22:00', 3)],
    }),
    horizonH: 30,
    restH: 24,
    eloPerPoint: 290,
    homeAdv: 0.18,
    formSd: 0.12,
    avgTotal: 6.2,
    totalSd: 0.3,
    timeline: [
      { label: 'P1', gameMin: 20, wallMin: 37 },
      { label: 'P1', gameMin: 0, wallMin: 18 },
      { label: 'P2', gameMin: 20, wallMin: 37 },
      { label: 'P2', gameMin: 0, wallMin: 18 },
      { label: 'P3', gameMin: 20, wallMin: 39 },
    ],
    overtime: { label: 'OT', gameMin: 5, wallMin: 9 },
    props: NHL_PROPS,
  },
  soccer('epl', 'Europe/London', days({ 6: ['12:30', ...rep('15:00', 4), '17:30'], 0: ['14:00', '14:00', '16:30'], 1: ['20:00'] }), 2.85),
  soccer(
    'la_liga',
    'Europe/Madrid',
    days({ 5: ['21:00'], 6: ['14:00', '16:15', '18:30', '21:00'], 0: ['14:00', '16:15', '18:30', '21:00'], 1: ['21:00'] }),
    2.55,
  ),
  soccer(
    'serie_a',
    'Europe/Rome',
    days({ 5: ['20:45'], 6: ['15:00', '18:00', '20:45'], 0: ['12:30', '15:00', '15:00', '18:00', '20:45'], 1: ['20:45'] }),
    2.65,
  ),
  soccer('bundesliga', 'Europe/Berlin', days({ 5: ['20:30'], 6: [...rep('15:30', 5), '18:30'], 0: ['15:30', '17:30'] }), 3.15),
  soccer(
    'ligue_1',
    'Europe/Paris',
    days({ 5: ['20:45'], 6: ['17:00', '19:00', '21:05'], 0: [...rep('15:00', 3), '17:15', '20:45'] }),
    2.75,
  ),
  soccer('ucl', 'Europe/Paris', days({ 2: ['18:45', '18:45', ...rep('21:00', 7)], 3: ['18:45', '18:45', ...rep('21:00', 7)] }), 3.05, 0.3),
  soccer('uel', 'Europe/Paris', days({ 4: [...rep('18:45', 5), ...rep('21:00', 5)] }), 2.8, 0.3, {}),
  soccer('mls', 'America/New_York', days({ 6: [...rep('19:30', 9), '20:30', '20:30', ...rep('22:30', 3)], 0: ['18:00'] }), 3.05, 0.4, {}),
  {
    id: 'atp',
    sport: 'tennis',
    tz: 'Europe/Paris',
    slots: days(Object.fromEntries([0, 1, 2, 3, 4, 5, 6].map((d) => [d, ['11:00', '12:30', '14:00', '15:30', '17:00', '18:30']]))),
    horizonH: 24,
    restH: 24,
    eloPerPoint: 650,
    homeAdv: 0,
    formSd: 0.04,
    avgTotal: 22,
    totalSd: 0,
    timeline: [],
    overtime: null,
    props: {},
  },
  {
    id: 'wta',
    sport: 'tennis',
    tz: 'Europe/Paris',
    slots: days(Object.fromEntries([0, 1, 2, 3, 4, 5, 6].map((d) => [d, ['11:30', '13:00', '14:30', '16:00', '17:30']]))),
    horizonH: 24,
    restH: 24,
    eloPerPoint: 600,
    homeAdv: 0,
    formSd: 0.04,
    avgTotal: 21,
    totalSd: 0,
    timeline: [],
    overtime: null,
    props: {},
  },
  {
    id: 'ufc',
    sport: 'mma',
    tz: 'America/New_York',
    slots: days({ 6: ['18:00', '18:30', '19:00', '19:30', '20:00', '22:00', '22:35', '23:10'] }),
    horizonH: 168,
    restH: 24 * 14,
    eloPerPoint: 170,
    homeAdv: 0,
    formSd: 0.25,
    avgTotal: 0,
    totalSd: 0,
    timeline: [],
    overtime: null,
    props: {},
  },
];

/** Approximate wall-clock length of a game in ms (to know what is in progress). */
export function gameDurationMs(league: LeagueConfig): number {
  if (league.sport === 'tennis') return 100 * 60_000;
  if (league.sport === 'mma') return 22 * 60_000;
  let min = 0;
  for (const s of league.timeline) min += s.wallMin;
  return min * 60_000;
}

/** Total regulation game minutes of a period sport. */
export function regulationMinutes(league: LeagueConfig): number {
  let m = 0;
  for (const s of league.timeline) m += s.gameMin;
  return m;
}
