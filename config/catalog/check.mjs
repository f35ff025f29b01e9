// Validates the reference catalog in this folder. Plain Node ESM, no dependencies.
// Usage (from the project root): node config/catalog/check.mjs
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const load = (name) => JSON.parse(readFileSync(join(here, name), 'utf8'));

const errors = [];
const fail = (msg) => errors.push(msg);
const norm = (s) =>
  String(s)
    .replace(/[øØ]/g, 'o').replace(/[æÆ]/g, 'ae').replace(/ß/g, 'ss').replace(/[łŁ]/g, 'l')
    .replace(/[đĐ]/g, 'd').replace(/ı/g, 'i').replace(/œ/g, 'oe')
    .normalize('NFD').replace(/[\u0300-\u036f]/g, '')
    .toLowerCase().replace(/[^a-z0-9]/g, '');

function uniqueBy(list, field, file) {
  const seen = new Map();
  for (const item of list) {
    const v = item[field];
    if (v === undefined || v === null) continue;
    if (seen.has(v)) fail(`${file}: duplicate ${field} ${JSON.stringify(v)}`);
    seen.set(v, item);
  }
  return seen;
}
function requireFields(list, fields, file) {
  for (const item of list) {
    for (const f of fields) {
      if (!(f in item)) fail(`${file}: ${item.id ?? item.name ?? '?'} lacks field ${f}`);
    }
  }
}
function fixed(map, expected, file) {
  for (const [id, n] of Object.entries(expected)) {
    const item = map.get(id);
    if (!item) fail(`${file}: missing ${id}`);
    else if (item.numerical_id !== n) fail(`${file}: ${id} numerical_id ${item.numerical_id}, expected ${n}`);
  }
}

const sports = load('sports.json');
const leagues = load('leagues.json');
const books = load('sportsbooks.json');
const markets = load('markets.json');
const teams = load('teams.json');
const players = load('players.json');

// ---- sports
requireFields(sports, ['id', 'numerical_id', 'name'], 'sports.json');
const sportById = uniqueBy(sports, 'id', 'sports.json');
uniqueBy(sports, 'numerical_id', 'sports.json');
const SPORT_ORDER = ['basketball', 'football', 'baseball', 'hockey', 'soccer', 'tennis', 'mma', 'golf', 'boxing',
  'cricket', 'rugby', 'rugby_league', 'lacrosse', 'motorsports', 'curling', 'darts', 'snooker', 'table_tennis', 'esports'];
if (sports.map((s) => s.id).join() !== SPORT_ORDER.join()) fail('sports.json: ids/order differ from CONTRACT 15.2');
fixed(sportById, { basketball: 1, football: 2, baseball: 3, hockey: 4 }, 'sports.json');

// ---- leagues
requireFields(leagues, ['id', 'numerical_id', 'name', 'label', 'sport', 'aliases', 'timezone', 'country'], 'leagues.json');
const leagueById = uniqueBy(leagues, 'id', 'leagues.json');
uniqueBy(leagues, 'numerical_id', 'leagues.json');
fixed(leagueById, { nba: 87, ncaab: 88, wnba: 89, nfl: 90, mlb: 354 }, 'leagues.json');
const REQUIRED_LEAGUES = ['nba', 'ncaab', 'wnba', 'nfl', 'ncaaf', 'nhl', 'mlb', 'epl', 'la_liga', 'serie_a', 'bundesliga',
  'ligue_1', 'ucl', 'mls', 'atp', 'wta', 'ufc', 'pga', 'euroleague'];
for (const id of REQUIRED_LEAGUES) if (!leagueById.has(id)) fail(`leagues.json: missing ${id}`);
if (leagues.length < 20) fail(`leagues.json: ${leagues.length} leagues, expected at least 20`);
const EASTERN = new Set(['nba', 'nfl', 'nhl', 'mlb', 'ncaab', 'ncaaf', 'wnba']);
const leagueAlias = new Map();
for (const l of leagues) {
  if (!sportById.has(l.sport)) fail(`leagues.json: ${l.id} sport ${l.sport} unknown`);
  if (!/^[a-z0-9_]+$/.test(l.id)) fail(`leagues.json: id ${l.id} is not a lowercase snake id`);
  if (EASTERN.has(l.id) && l.timezone !== 'America/New_York') fail(`leagues.json: ${l.id} timezone must be America/New_York`);
  if (!EASTERN.has(l.id) && !['UTC', 'America/New_York'].includes(l.timezone)) fail(`leagues.json: ${l.id} timezone ${l.timezone}`);
  if (!Array.isArray(l.aliases)) fail(`leagues.json: ${l.id} aliases not an array`);
  for (const a of l.aliases) {
    if (a !== a.toLowerCase()) fail(`leagues.json: ${l.id} alias ${a} not lower case`);
    if (leagueById.has(a) && a !== l.id) fail(`leagues.json: alias ${a} of ${l.id} is another league's id`);
    if (leagueAlias.has(a) && leagueAlias.get(a) !== l.id) fail(`leagues.json: alias ${a} on ${leagueAlias.get(a)} and ${l.id}`);
    leagueAlias.set(a, l.id);
  }
}
const SOCCER_SLUGS = { epl: 'england_-_premier_league', la_liga: 'spain_-_la_liga', serie_a: 'italy_-_serie_a',
  bundesliga: 'germany_-_bundesliga', ligue_1: 'france_-_ligue_1', ucl: 'uefa_-_champions_league', mls: 'usa_-_major_league_soccer' };
for (const [id, slug] of Object.entries(SOCCER_SLUGS)) {
  if (leagueAlias.get(slug) !== id) fail(`leagues.json: canonical slug ${slug} must be an alias of ${id}`);
}
for (const a of ['mlb_american_league', 'mlb_national_league', 'mlb_awards']) if (!leagues.some((l) => l.id === a)) fail(`leagues.json: ${a} must be a league (the sample data's futures use it)`);

// ---- sportsbooks
requireFields(books, ['id', 'numerical_id', 'display_name', 'class', 'regions', 'is_sharp', 'requires_tier', 'has_live_odds',
  'has_player_props', 'unlisted', 'popularity', 'odds_api_keys', 'deep_link', 'settlement', 'margin_profile'], 'sportsbooks.json');
const bookById = uniqueBy(books, 'id', 'sportsbooks.json');
uniqueBy(books, 'numerical_id', 'sportsbooks.json');
uniqueBy(books, 'popularity', 'sportsbooks.json');
fixed(bookById, { draftkings: 12, fanduel: 14, pinnacle: 28 }, 'sportsbooks.json');
const listed = books.filter((b) => b.unlisted === false);
const openListed = listed.filter((b) => b.requires_tier === null);
const sharpListed = listed.filter((b) => b.requires_tier === 'sharp');
if (listed.length !== 26) fail(`sportsbooks.json: ${listed.length} listed books, expected 26`);
if (openListed.length !== 23) fail(`sportsbooks.json: ${openListed.length} listed books with requires_tier null, expected 23`);
if (sharpListed.length !== 3) fail(`sportsbooks.json: ${sharpListed.length} listed sharp-tier books, expected 3`);
if (books.length !== 42) fail(`sportsbooks.json: ${books.length} books in all, expected 42 (the 26 listed, the unlisted current books of CONTRACT.md 15.1)`);
if (sharpListed.map((b) => b.id).sort().join() !== 'circa,pinnacle,prophetx') fail('sportsbooks.json: listed sharp-tier books must be pinnacle, circa, prophetx');
const UNLISTED = ['betano', 'betfair', 'bookmaker', 'betsson', 'bwin', 'hardrock', 'onexbet', 'sbobet', 'sportzino', 'sx_bet',
  'unibet_be', 'unibet_ca', 'unibet_de', 'unibet_dk', 'unibet_ro', 'unibet_se'].sort();
if (books.filter((b) => b.unlisted).map((b) => b.id).sort().join() !== UNLISTED.join()) fail('sportsbooks.json: unlisted set differs');
const pops = books.map((b) => b.popularity).sort((a, b) => a - b);
pops.forEach((p, i) => { if (p !== i + 1) fail(`sportsbooks.json: popularity ranks must be 1..${books.length}`); });
const byPop = [...openListed].sort((a, b) => a.popularity - b.popularity).map((b) => b.id);
if (byPop.slice(0, 2).join() !== 'draftkings,fanduel') fail('sportsbooks.json: free default must be draftkings, fanduel');
if (byPop.slice(0, 5).join() !== 'draftkings,fanduel,betmgm,caesars,thescorebet') fail('sportsbooks.json: hobby default (top 5 open) wrong');
if (byPop.slice(5, 7).join() !== 'bet365,betrivers') fail('sportsbooks.json: ranks 6-7 of open books must be bet365, betrivers');
// the top 15 by popularity among ALL open books (listed or not) must equal the top 15 listed open books
const byPopAllOpen = books.filter((b) => b.requires_tier === null).sort((a, b) => a.popularity - b.popularity).map((b) => b.id);
if (byPopAllOpen.slice(0, 15).join() !== byPop.slice(0, 15).join()) fail('sportsbooks.json: an unlisted book ranks inside the pro default 15');
const CLASSES = new Set(['us', 'sharp', 'international', 'exchange', 'prediction']);
const REGIONS = new Set(['US', 'UK', 'EU', 'AU', 'GLOBAL']);
const NO_DEEP_LINK = new Set(['bet105', 'bookmaker', 'fliff', 'rebet', 'saba']);
const MARGIN = { pinnacle: 'sharp', circa: 'sharp', bookmaker: 'sharp', prophetx: 'exchange', betfair: 'exchange',
  novig: 'exchange', sx_bet: 'exchange', sbobet: 'sharp', kalshi: 'prediction', polymarket: 'prediction' };
const oddsApiKeys = new Map();
for (const b of books) {
  if (!CLASSES.has(b.class)) fail(`sportsbooks.json: ${b.id} class ${b.class}`);
  if (!Array.isArray(b.regions) || b.regions.length === 0) fail(`sportsbooks.json: ${b.id} has no regions`);
  for (const r of b.regions ?? []) if (!REGIONS.has(r)) fail(`sportsbooks.json: ${b.id} region ${r}`);
  if (b.class === 'us' && !b.regions.includes('US')) fail(`sportsbooks.json: US book ${b.id} lacks region US`);
  if (b.class === 'international' && b.regions.includes('US')) fail(`sportsbooks.json: international book ${b.id} has region US`);
  if (![null, 'sharp'].includes(b.requires_tier)) fail(`sportsbooks.json: ${b.id} requires_tier ${b.requires_tier}`);
  if (!['sportsbook', 'exchange', 'prediction'].includes(b.settlement)) fail(`sportsbooks.json: ${b.id} settlement ${b.settlement}`);
  if ((MARGIN[b.id] ?? 'soft') !== b.margin_profile) fail(`sportsbooks.json: ${b.id} margin_profile ${b.margin_profile}`);
  if (NO_DEEP_LINK.has(b.id) ? b.deep_link !== null : !/^https:\/\//.test(b.deep_link ?? '')) fail(`sportsbooks.json: ${b.id} deep_link ${b.deep_link}`);
  for (const k of ['is_sharp', 'has_live_odds', 'has_player_props', 'unlisted']) {
    if (typeof b[k] !== 'boolean') fail(`sportsbooks.json: ${b.id} ${k} not boolean`);
  }
  for (const k of b.odds_api_keys) {
    if (oddsApiKeys.has(k)) fail(`sportsbooks.json: odds_api_key ${k} on ${oddsApiKeys.get(k)} and ${b.id}`);
    oddsApiKeys.set(k, b.id);
  }
}

// ---- markets
const types = markets.types ?? [];
requireFields(types, ['id', 'numerical_id', 'name', 'description', 'hasLine', 'examples', 'category', 'outcomes'], 'markets.json');
const typeById = uniqueBy(types, 'id', 'markets.json');
uniqueBy(types, 'numerical_id', 'markets.json');
fixed(typeById, { moneyline: 878, point_spread: 880, total_points: 881 }, 'markets.json');
const REQUIRED_TYPES = ['moneyline', 'point_spread', 'total_points', 'team_total', 'player_prop', 'game_prop', 'future',
  'puck_line', 'run_line', 'set_handicap', 'asian_handicap', 'total_goals', 'total_runs', 'total_games', 'total_rounds',
  'player_points', 'player_rebounds', 'player_assists', 'player_threes', 'player_pass_yards', 'player_rush_yards',
  'player_receiving_yards', 'player_shots_on_goal', 'player_goals', 'player_strikeouts', 'player_total_bases', 'player_hits',
  'double_chance', 'draw_no_bet', 'correct_score', 'winning_margin', 'first_goal', 'anytime_goal', 'next_goal',
  'round_betting', 'binary', 'outright'];
for (const id of REQUIRED_TYPES) if (!typeById.has(id)) fail(`markets.json: missing type ${id}`);
for (const t of types) {
  if (!['main', 'spread', 'total', 'props', 'other'].includes(t.category)) fail(`markets.json: ${t.id} category ${t.category}`);
  if (!['two_way', 'three_way', 'over_under', 'n_way', 'binary'].includes(t.outcomes)) fail(`markets.json: ${t.id} outcomes ${t.outcomes}`);
  if (typeof t.hasLine !== 'boolean') fail(`markets.json: ${t.id} hasLine not boolean`);
}
if (typeById.get('moneyline')?.hasLine !== false) fail('markets.json: moneyline must have no line');
const EXPECTED_ALIASES = {
  main: ['moneyline', 'point_spread', 'total_points'],
  spread: ['point_spread', 'puck_line', 'run_line', 'set_handicap', 'asian_handicap'],
  total: ['total_points', 'total_goals', 'total_runs', 'total_games', 'total_rounds', 'team_total'],
  alts: ['point_spread', 'total_points'],
};
const aliases = markets.aliases ?? {};
for (const [k, ids] of Object.entries(EXPECTED_ALIASES)) {
  if ([...(aliases[k] ?? [])].sort().join() !== [...ids].sort().join()) fail(`markets.json: alias ${k} must be ${ids.join(',')}`);
}
const propIds = types.filter((t) => t.id.startsWith('player_')).map((t) => t.id).sort();
if ([...(aliases.props ?? [])].sort().join() !== propIds.join()) fail('markets.json: alias props must list every player_* type');
for (const [k, ids] of Object.entries(aliases)) for (const id of ids) if (!typeById.has(id)) fail(`markets.json: alias ${k} names unknown ${id}`);

// ---- teams
requireFields(teams, ['id', 'slug', 'numerical_id', 'name', 'abbreviation', 'sport', 'leagues', 'key', 'aliases', 'city',
  'mascot', 'conference', 'division', 'rating'], 'teams.json');
const teamById = uniqueBy(teams, 'id', 'teams.json');
uniqueBy(teams, 'slug', 'teams.json');
uniqueBy(teams, 'numerical_id', 'teams.json');
fixed(teamById, { boston_celtics: 3, buffalo_bills: 4, boston_red_sox: 5, kansas_city_chiefs: 11, los_angeles_lakers: 14,
  new_york_yankees: 20 }, 'teams.json');
const nums = teams.map((t) => t.numerical_id).sort((a, b) => a - b);
if (nums[0] !== 1 || nums[nums.length - 1] !== teams.length) fail(`teams.json: numerical ids must be dense 1..${teams.length}`);
const perLeague = new Map(); // league -> {teams, keys: Map, aliases: Map}
for (const t of teams) {
  if (!/^[a-z0-9]+(_[a-z0-9]+)*$/.test(t.id)) fail(`teams.json: id ${t.id} is not snake case`);
  if (t.slug !== t.id.replace(/_/g, '-')) fail(`teams.json: ${t.id} slug ${t.slug}`);
  if (!Number.isInteger(t.numerical_id) || t.numerical_id < 1) fail(`teams.json: ${t.id} numerical_id ${t.numerical_id}`);
  if (!sportById.has(t.sport)) fail(`teams.json: ${t.id} sport ${t.sport} unknown`);
  if (!/^[a-z0-9]+$/.test(t.key)) fail(`teams.json: ${t.id} key ${t.key} must be lowercase letters/digits`);
  if (typeof t.rating !== 'number' || t.rating < 1200 || t.rating > 1800) fail(`teams.json: ${t.id} rating ${t.rating}`);
  if (!Array.isArray(t.aliases) || t.aliases.length < 3) fail(`teams.json: ${t.id} has fewer than 3 aliases`);
  if (!Array.isArray(t.leagues) || t.leagues.length === 0) fail(`teams.json: ${t.id} has no league`);
  if (t.logo !== undefined && t.logo !== null && !/^https:\/\/[^\s"<>]+$/.test(t.logo)) fail(`teams.json: ${t.id} logo must be an https URL`);
  for (const lg of t.leagues ?? []) {
    const league = leagueById.get(lg);
    if (!league) { fail(`teams.json: ${t.id} league ${lg} unknown`); continue; }
    if (league.sport !== t.sport) fail(`teams.json: ${t.id} sport ${t.sport} but league ${lg} is ${league.sport}`);
    if (!perLeague.has(lg)) perLeague.set(lg, { count: 0, keys: new Map(), aliases: new Map() });
    const L = perLeague.get(lg);
    L.count++;
    if (L.keys.has(t.key)) fail(`teams.json: key ${t.key} used by ${L.keys.get(t.key)} and ${t.id} in ${lg}`);
    L.keys.set(t.key, t.id);
    for (const a of new Set(t.aliases.map(norm))) {
      if (L.aliases.has(a) && L.aliases.get(a) !== t.id) fail(`teams.json: alias "${a}" maps to ${L.aliases.get(a)} and ${t.id} in ${lg}`);
      L.aliases.set(a, t.id);
    }
  }
}
// an alias must not normalise to another team's key in the same league
for (const [lg, L] of perLeague) {
  for (const [a, owner] of L.aliases) {
    const keyOwner = L.keys.get(a);
    if (keyOwner && keyOwner !== owner) fail(`teams.json: alias "${a}" of ${owner} equals the key of ${keyOwner} in ${lg}`);
  }
}
const EXPECTED_TEAMS = { nba: 30, nfl: 32, nhl: 32, mlb: 30, epl: 20, la_liga: 20, serie_a: 20, bundesliga: 18, ligue_1: 18, mls: 30, ucl: 36 };
for (const [lg, n] of Object.entries(EXPECTED_TEAMS)) {
  const got = perLeague.get(lg)?.count ?? 0;
  if (got !== n) fail(`teams.json: ${lg} has ${got} teams, expected ${n}`);
}

// ---- players
requireFields(players, ['name', 'team', 'sport', 'league', 'position', 'props'], 'players.json');
const playerKeys = new Set();
for (const p of players) {
  const t = teamById.get(p.team);
  if (!t) { fail(`players.json: ${p.name} team ${p.team} unknown`); continue; }
  if (p.sport !== t.sport) fail(`players.json: ${p.name} sport ${p.sport} but team ${t.id} is ${t.sport}`);
  if (!t.leagues.includes(p.league)) fail(`players.json: ${p.name} league ${p.league} not a league of ${t.id}`);
  const k = `${p.team}|${p.name}`;
  if (playerKeys.has(k)) fail(`players.json: duplicate ${p.name} on ${p.team}`);
  playerKeys.add(k);
  const stats = Object.entries(p.props ?? {});
  if (stats.length === 0) fail(`players.json: ${p.name} has no props`);
  for (const [stat, v] of stats) {
    if (!typeById.has(`player_${stat}`)) fail(`players.json: ${p.name} stat ${stat} has no market type player_${stat}`);
    if (typeof v !== 'number' || !(v >= 0)) fail(`players.json: ${p.name} ${stat} = ${v}`);
  }
}

// ---- report
const count = (list, f) => list.reduce((m, x) => m.set(x[f], (m.get(x[f]) ?? 0) + 1), new Map());
const fmt = (m) => [...m].map(([k, v]) => `${k} ${v}`).join(', ');
console.log(`sports.json      ${sports.length}`);
console.log(`leagues.json     ${leagues.length} (per sport: ${fmt(count(leagues, 'sport'))})`);
console.log(`sportsbooks.json ${books.length} (listed ${listed.length}: ${openListed.length} open + ${sharpListed.length} sharp; unlisted ${books.length - listed.length})`);
console.log(`markets.json     ${types.length} types; aliases ${Object.entries(aliases).map(([k, v]) => `${k} ${v.length}`).join(', ')}`);
console.log(`teams.json       ${teams.length} (per league: ${[...perLeague].map(([k, v]) => `${k} ${v.count}`).join(', ')})`);
console.log(`players.json     ${players.length} (per league: ${fmt(count(players, 'league'))})`);
if (errors.length) {
  console.error(`\n${errors.length} violation(s):`);
  for (const e of errors) console.error(`  - ${e}`);
  process.exit(1);
}
console.log('\ncatalog OK');
