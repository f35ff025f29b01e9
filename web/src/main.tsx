import { render } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import './style.css';
import { API, getJson } from './api.js';
import { EventPage } from './event-page.js';
import { RecordPage } from './record-page.js';
import {
  KINDS,
  applyFrame,
  buildBoard,
  emptyState,
  fmtAmerican,
  fmtLine,
  oppScore,
  stake,
  type Json,
  type Kind,
  type LiveState,
} from './live.js';

const KEYS_STORE = 'odds-dashboard.keys';
const CURRENT_STORE = 'odds-dashboard.key';
/** The books the person hid from the board and the charts (kept in this browser, like the keys). */
const HIDDEN_BOOKS_STORE = 'odds-dashboard.hidden-books';
const STREAM_EVENTS = [
  'connected',
  'snapshot',
  'snapshot:complete',
  'odds:update',
  'odds:locked',
  'odds:removed',
  'error',
  'ev:detected',
  'ev:expired',
  'arb:detected',
  'arb:expired',
  'middles:detected',
  'middles:expired',
  'low_hold:detected',
  'low_hold:expired',
];
const KIND_TITLES: Record<Kind, string> = { ev: '+EV', arbitrage: 'Arbitrage', middles: 'Middles', low_hold: 'Low hold' };
const LIST_MAX = 50;

interface SavedKey {
  key: string;
  tier: string;
}

function loadKeys(): SavedKey[] {
  try {
    const v = JSON.parse(localStorage.getItem(KEYS_STORE) ?? '[]');
    return Array.isArray(v) ? v.filter((k) => typeof k?.key === 'string') : [];
  } catch {
    return [];
  }
}

function loadHidden(): Set<string> {
  try {
    const v = JSON.parse(localStorage.getItem(HIDDEN_BOOKS_STORE) ?? '[]');
    return new Set(Array.isArray(v) ? v.filter((b) => typeof b === 'string') : []);
  } catch {
    return new Set();
  }
}

type View = 'board' | 'event' | 'record';

function viewOf(h: URLSearchParams): View {
  const v = h.get('view');
  return v === 'event' && h.get('event') ? 'event' : v === 'record' ? 'record' : 'board';
}

function mask(key: string): string {
  return key.length > 12 ? `${key.slice(0, 8)}…${key.slice(-4)}` : key;
}

/**
 * The hash holds what a link may carry: `#key=...` (taken into storage and removed), `#event=...` (the board narrowed
 * to one game), `#view=event&event=...` (its line history) and `#view=record` (the track record).
 */
function hashParams(): URLSearchParams {
  return new URLSearchParams(location.hash.replace(/^#/, ''));
}

function App() {
  const [keys, setKeys] = useState<SavedKey[]>(loadKeys);
  const [key, setKey] = useState<string | null>(() => localStorage.getItem(CURRENT_STORE));
  const [draft, setDraft] = useState('');
  const [account, setAccount] = useState<Json | null>(null);
  const [usage, setUsage] = useState<Json | null>(null);
  const [authError, setAuthError] = useState<string | null>(null);
  const [sports, setSports] = useState<Json[]>([]);
  const [leagues, setLeagues] = useState<Json[]>([]);
  const [markets, setMarkets] = useState<Json[]>([]);
  const [sport, setSport] = useState('');
  const [league, setLeague] = useState('');
  const [market, setMarket] = useState('moneyline');
  const [eventId, setEventId] = useState<string | null>(() => hashParams().get('event'));
  const [view, setView] = useState<View>(() => viewOf(hashParams()));
  const [hidden, setHidden] = useState<Set<string>>(loadHidden);
  const [minEv, setMinEv] = useState(2);
  const [minProfit, setMinProfit] = useState(0.5);
  const [bankroll, setBankroll] = useState(100);
  const live = useRef<LiveState>(emptyState());
  const [version, setVersion] = useState(0);

  // A key in the link (#key=...) is stored and taken out of the address bar.
  useEffect(() => {
    const h = hashParams();
    const k = h.get('key');
    if (k) {
      h.delete('key');
      history.replaceState(null, '', `${location.pathname}${location.search}${h.toString() ? `#${h}` : ''}`);
      useKey(k);
    }
    const onHash = () => {
      setEventId(hashParams().get('event'));
      setView(viewOf(hashParams()));
    };
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  function useKey(k: string) {
    const trimmed = k.trim();
    if (!trimmed) return;
    localStorage.setItem(CURRENT_STORE, trimmed);
    setKey(trimmed);
    setDraft('');
  }

  function toggleBooks(books: string[], hide: boolean) {
    const next = new Set(hidden);
    for (const b of books) {
      if (hide) next.add(b);
      else next.delete(b);
    }
    localStorage.setItem(HIDDEN_BOOKS_STORE, JSON.stringify([...next].sort()));
    setHidden(next);
  }

  function forget(k: string) {
    const next = keys.filter((s) => s.key !== k);
    localStorage.setItem(KEYS_STORE, JSON.stringify(next));
    setKeys(next);
    if (k === key) {
      localStorage.removeItem(CURRENT_STORE);
      setKey(null);
    }
  }

  // The account (tier, features) and its usage when the service has that endpoint.
  useEffect(() => {
    setAccount(null);
    setUsage(null);
    setAuthError(null);
    if (!key) return;
    let gone = false;
    void getJson('/account', key).then(({ status, body }) => {
      if (gone) return;
      if (status !== 200) {
        setAuthError(body?.error?.message ?? `GET /account answered ${status}`);
        return;
      }
      const acc = body.data as Json;
      setAccount(acc);
      const saved = [{ key, tier: String(acc.tier) }, ...loadKeys().filter((s) => s.key !== key)];
      localStorage.setItem(KEYS_STORE, JSON.stringify(saved));
      setKeys(saved);
    });
    void getJson('/account/usage', key).then(({ status, body }) => {
      if (!gone && status === 200) setUsage(body?.data ?? null);
    });
    return () => {
      gone = true;
    };
  }, [key]);

  useEffect(() => {
    void getJson('/sports', null).then(({ body }) => setSports(body?.data ?? []));
  }, []);
  useEffect(() => {
    if (!account) return;
    void getJson(`/leagues${sport ? `?sport=${encodeURIComponent(sport)}` : ''}`, key).then(({ body }) => setLeagues(body?.data ?? []));
    void getJson('/markets', key).then(({ body }) => setMarkets(body?.data ?? []));
  }, [account, sport]);

  // The live stream: reopened whenever the key or a filter changes.
  useEffect(() => {
    if (!key || !account || !account.features?.streaming || view !== 'board') return;
    live.current = emptyState();
    setVersion((v) => v + 1);
    const q = new URLSearchParams({ channel: 'all', api_key: key, min_ev: String(minEv), min_profit: String(minProfit) });
    if (sport) q.set('sport', sport);
    if (league) q.set('league', league);
    if (market && !eventId) q.set('market', market);
    if (eventId) q.set('event', eventId);
    const es = new EventSource(`${API}/stream?${q}`);
    let timer: ReturnType<typeof setTimeout> | null = null;
    const bump = () => {
      timer ??= setTimeout(() => {
        timer = null;
        setVersion((v) => v + 1);
      }, 200);
    };
    const handler = (e: MessageEvent) => {
      let data: unknown;
      try {
        data = JSON.parse(e.data);
      } catch {
        return;
      }
      if (applyFrame(live.current, e.type, data)) bump();
      if (e.type === 'error' && (data as Json)?.code === 'unauthorized') es.close();
    };
    for (const name of STREAM_EVENTS) es.addEventListener(name, handler as EventListener);
    // A stream refused before it starts (a 4xx: a filter over the snapshot limit, a revoked key) closes the
    // EventSource without a reason: ask once more with fetch to show the error body's message.
    const abort = new AbortController();
    es.onerror = () => {
      if (es.readyState !== EventSource.CLOSED) return;
      void fetch(es.url, { signal: abort.signal })
        .then(async (res) => {
          const body = res.ok ? null : await res.json().catch(() => null);
          abort.abort();
          live.current.error = {
            code: body?.error?.code ?? `http_${res.status}`,
            message: body?.error?.message ?? 'The stream closed; change a filter or reload to reconnect',
          };
          setVersion((v) => v + 1);
        })
        .catch(() => undefined);
    };
    return () => {
      abort.abort();
      es.close();
      if (timer) clearTimeout(timer);
    };
  }, [key, account, sport, league, market, eventId, minEv, minProfit, view]);

  const s = live.current;
  const board = useMemo(() => buildBoard(s.odds.values(), view === 'board' ? eventId : null), [version, eventId, view]);
  const shownBooks = board.books.filter((b) => !hidden.has(b));
  const lists = useMemo(() => {
    const out = {} as Record<Kind, Json[]>;
    for (const k of KINDS) out[k] = [...s.opps[k].values()].sort((a, b) => oppScore(k, b) - oppScore(k, a)).slice(0, LIST_MAX);
    return out;
  }, [version]);

  const sportLeagues = leagues.filter((l) => !sport || l.sport === sport);
  const sportMarkets = markets.filter((m) => !sport || !Array.isArray(m.sports) || m.sports.includes(sport));

  return (
    <div class="page">
      <header>
        <h1>Odds Service</h1>
        <span class={`status ${s.phase}`} data-testid="status">
          {!key
            ? 'no key'
            : authError
              ? 'key refused'
              : account && !account.features?.streaming
                ? 'no streaming on this tier'
                : s.phase === 'live'
                  ? 'live'
                  : 'connecting…'}
        </span>
        <nav>
          <a href="#" class={view === 'board' ? 'on' : ''}>
            Board
          </a>
          <a href="#view=record" class={view === 'record' ? 'on' : ''} data-testid="nav-record">
            Track record
          </a>
          <a href="../docs">API docs</a>
        </nav>
      </header>

      <section class="keybar">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            useKey(draft);
          }}
        >
          <input
            type="password"
            placeholder="Paste an API key (sk_...)"
            value={draft}
            onInput={(e) => setDraft((e.target as HTMLInputElement).value)}
            aria-label="API key"
            name="api-key"
            autocomplete="off"
          />
          <button type="submit">Use key</button>
        </form>
        {keys.length > 0 && (
          <div class="saved">
            {keys.map((k) => (
              <span class={`chip ${k.key === key ? 'on' : ''}`} key={k.key}>
                <button type="button" onClick={() => useKey(k.key)} title="Use this key">
                  {k.tier} · {mask(k.key)}
                </button>
                <button type="button" class="x" onClick={() => forget(k.key)} title="Forget this key">
                  ×
                </button>
              </span>
            ))}
          </div>
        )}
        {!key && (
          <p class="hint">
            The demo keys are printed when the service first starts and kept in <code>data/demo-keys.txt</code>; the sharp or enterprise key
            shows everything. Keys stay in this browser (localStorage).
          </p>
        )}
        {authError && <p class="err">{authError}</p>}
        {account && (
          <div class="account" data-testid="account">
            <strong>Tier: {account.tier}</strong>
            <span>{account.limits?.requests_per_minute} requests/min</span>
            <span>{account.limits?.max_streams} streams</span>
            <span>data delay {account.limits?.data_delay_seconds ?? 0} s</span>
            <span>
              features:{' '}
              {Object.entries(account.features ?? {})
                .filter(([, on]) => on)
                .map(([f]) => f)
                .join(', ')}
            </span>
            {usage && (
              <span data-testid="usage">
                usage: today {usage.requests?.today ?? '-'} · this month {usage.requests?.this_month ?? '-'} · this minute{' '}
                {usage.requests?.limit
                  ? `${usage.requests.limit.per_minute - usage.requests.limit.remaining}/${usage.requests.limit.per_minute}`
                  : '-'}{' '}
                · streams {usage.streams ? `${usage.streams.active}/${usage.streams.max}` : '-'}
              </span>
            )}
          </div>
        )}
        {account && !account.features?.streaming && view === 'board' && (
          <p class="err">The {account.tier} tier has no streaming, so no live board: use a hobby key or above.</p>
        )}
        {s.error && (
          <p class="err">
            Stream: {s.error.code}: {s.error.message}
          </p>
        )}
      </section>

      {account && key && view === 'event' && eventId && <EventPage eventId={eventId} apiKey={key} hidden={hidden} />}
      {account && key && view === 'record' && <RecordPage apiKey={key} />}

      {account && account.features?.streaming && view === 'board' && (
        <>
          <section class="filters">
            <label>
              Sport
              <select
                value={sport}
                onChange={(e) => {
                  setSport((e.target as HTMLSelectElement).value);
                  setLeague('');
                }}
              >
                <option value="">All sports</option>
                {sports.map((x) => (
                  <option value={x.id}>{x.name}</option>
                ))}
              </select>
            </label>
            <label>
              League
              <select value={league} onChange={(e) => setLeague((e.target as HTMLSelectElement).value)} name="league">
                <option value="">All leagues</option>
                {sportLeagues.map((x) => (
                  <option value={x.id}>{x.label ?? x.name}</option>
                ))}
              </select>
            </label>
            <label>
              Market
              <select value={market} onChange={(e) => setMarket((e.target as HTMLSelectElement).value)} name="market">
                {sportMarkets.map((x) => (
                  <option value={x.id}>{x.name}</option>
                ))}
              </select>
            </label>
            <label>
              Min EV %
              <input type="number" step="0.5" value={minEv} onChange={(e) => setMinEv(Number((e.target as HTMLInputElement).value) || 0)} />
            </label>
            <label>
              Min arb profit %
              <input
                type="number"
                step="0.1"
                value={minProfit}
                onChange={(e) => setMinProfit(Number((e.target as HTMLInputElement).value) || 0)}
              />
            </label>
            <label>
              Bankroll
              <input
                type="number"
                step="10"
                value={bankroll}
                onChange={(e) => setBankroll(Number((e.target as HTMLInputElement).value) || 0)}
              />
            </label>
            {eventId && (
              <a class="chip on" href="#" onClick={() => setEventId(null)}>
                event {eventId} ×
              </a>
            )}
            {eventId && (
              <a class="chip" href={`#view=event&event=${encodeURIComponent(eventId)}`} data-testid="event-chart-link">
                line history
              </a>
            )}
          </section>

          <main>
            <section class="opps">
              {KINDS.map((k) => (
                <div class="opp-list" data-kind={k} key={k}>
                  <h2>
                    {KIND_TITLES[k]} <small>{s.opps[k].size}</small>
                  </h2>
                  {account.features?.[k] === false ? (
                    <p class="muted">Not on the {account.tier} tier.</p>
                  ) : lists[k].length === 0 ? (
                    <p class="muted">{s.phase === 'live' ? 'None right now.' : 'Loading…'}</p>
                  ) : (
                    <ul>
                      {lists[k].map((o) => (
                        <Opp kind={k} o={o} bankroll={bankroll} fresh={s.fresh.has(o.id)} />
                      ))}
                    </ul>
                  )}
                </div>
              ))}
            </section>

            <section class="board">
              <h2>
                Board{' '}
                <small data-testid="board-count">
                  {board.events.length} events · {s.odds.size} prices
                </small>
                {board.books.length > 0 && (
                  <details class="picker" data-testid="book-picker">
                    <summary>
                      Books: {shownBooks.length} of {board.books.length} shown
                    </summary>
                    <div class="picker-actions">
                      <button type="button" onClick={() => toggleBooks(board.books, false)}>
                        Show all
                      </button>
                      <button type="button" onClick={() => toggleBooks(board.books, true)}>
                        Hide all
                      </button>
                    </div>
                    <div class="picker-books">
                      {board.books.map((b) => (
                        <label key={b}>
                          <input
                            type="checkbox"
                            name={`book-${b}`}
                            checked={!hidden.has(b)}
                            onChange={(e) => toggleBooks([b], !(e.target as HTMLInputElement).checked)}
                          />{' '}
                          {b}
                        </label>
                      ))}
                    </div>
                  </details>
                )}
              </h2>
              {board.events.length === 0 ? (
                <p class="muted">{s.phase === 'live' ? 'No prices for these filters.' : 'Loading…'}</p>
              ) : (
                <div class="scroll">
                  <table data-testid="board">
                    <thead>
                      <tr>
                        <th class="evh">Event</th>
                        <th class="selh">Selection</th>
                        {shownBooks.map((b) => (
                          <th class="book">{b}</th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {board.events.flatMap((ev) =>
                        ev.rows.map((row, i) => (
                          <tr class={i === 0 ? 'first' : ''} key={row.key}>
                            {i === 0 && (
                              <td rowSpan={ev.rows.length} class="ev">
                                <a href={`#event=${encodeURIComponent(ev.eventId)}`}>{ev.name}</a>{' '}
                                <a class="chart-link" href={`#view=event&event=${encodeURIComponent(ev.eventId)}`} title="Line history">
                                  chart
                                </a>
                                <div class="muted">
                                  {ev.league} · {ev.live ? <span class="livebadge">live</span> : new Date(ev.start).toLocaleString()}
                                </div>
                              </td>
                            )}
                            <td class="sel">
                              {row.selection} {fmtLine(row.line)}
                            </td>
                            {shownBooks.map((b) => {
                              const p = row.prices.get(b);
                              if (!p) return <td class="price" />;
                              const cls = `price${row.best.has(b) ? ' best' : ''}${p.is_active === false ? ' locked' : ''}`;
                              return (
                                <td class={cls} title={`${p.sportsbook_name ?? b}: ${p.odds_decimal}`}>
                                  {p.line !== null && p.line !== row.line ? <small>{fmtLine(p.line)} </small> : null}
                                  {fmtAmerican(p.odds_american)}
                                </td>
                              );
                            })}
                          </tr>
                        )),
                      )}
                    </tbody>
                  </table>
                </div>
              )}
            </section>
          </main>
        </>
      )}
    </div>
  );
}

function DeepLink({ href, label }: { href: string | null | undefined; label: string }) {
  // A book's URL, or the service's own resolver (/api/v1/deeplink/{id}), which redirects to the book.
  if (!href || !/^(https?:\/\/|\/api\/v1\/deeplink\/)/.test(href)) return <span>{label}</span>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {label}
    </a>
  );
}

function Opp({ kind, o, bankroll, fresh }: { kind: Kind; o: Json; bankroll: number; fresh: boolean }) {
  const title = (
    <div class="opp-head">
      <a href={`#event=${encodeURIComponent(o.event_id)}`}>{o.event_name}</a>
      <span class="muted">
        {' '}
        {o.league} · {o.market_type}
        {o.line !== null && o.line !== undefined ? ` ${fmtLine(o.line)}` : ''}
        {o.player_name ? ` · ${o.player_name}` : ''}
        {o.is_live ? ' · live' : ''}
      </span>
    </div>
  );
  let body;
  switch (kind) {
    case 'ev':
      body = (
        <div>
          <b>{o.ev_percentage.toFixed(2)}%</b> {o.selection} {fmtAmerican(o.odds_american)} at{' '}
          <DeepLink href={o.deep_link} label={o.sportsbook} />{' '}
          <span class="muted">
            fair {fmtAmerican(o.no_vig_odds)} ({o.sharp_book})
          </span>
        </div>
      );
      break;
    case 'arbitrage':
      body = (
        <div>
          <b>{o.profit_percent.toFixed(2)}%</b> <span class="muted">implied {o.implied_total.toFixed(2)}%</span>
          <table class="legs">
            <tbody>
              {(o.legs ?? []).map((l: Json) => (
                <tr>
                  <td>
                    <DeepLink href={l.deep_link} label={l.sportsbook} />
                  </td>
                  <td>
                    {l.selection} {fmtLine(l.line)}
                  </td>
                  <td>{fmtAmerican(l.odds_american)}</td>
                  <td class="stake">stake {stake(bankroll, l.stake_percent).toFixed(2)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div class="muted">
            returns {(bankroll * (1 + o.profit_percent / 100)).toFixed(2)} on {bankroll}
          </div>
        </div>
      );
      break;
    case 'middles':
      body = (
        <div>
          <b>EV {Number(o.expected_value).toFixed(2)}%</b>{' '}
          <span class="muted">
            middle {(o.middle_probability * 100).toFixed(1)}%{o.is_guaranteed_profit ? ' · guaranteed' : ''}
          </span>
          {[o.side1, o.side2].map((side: Json) => (
            <div>
              <DeepLink href={side.deep_link} label={side.book} /> {side.selection} {fmtLine(side.line)} {fmtAmerican(side.odds?.american)}
            </div>
          ))}
        </div>
      );
      break;
    case 'low_hold':
      body = (
        <div>
          <b>hold {o.hold_percentage.toFixed(2)}%</b>
          {[o.side1, o.side2, o.side3].filter(Boolean).map((side: Json) => (
            <div>
              {side.selection} {fmtLine(side.line)} {fmtAmerican(side.odds?.american)} at{' '}
              {(side.books ?? []).map((b: string, i: number) => (
                <>
                  {i > 0 && ', '}
                  <DeepLink href={side.deep_links?.[b]} label={b} />
                </>
              ))}
            </div>
          ))}
        </div>
      );
      break;
  }
  return (
    <li class={fresh ? 'fresh' : ''} data-id={o.id}>
      {title}
      {body}
      {Array.isArray(o.warnings) && o.warnings.length > 0 && <div class="warn">{o.warnings.join(', ')}</div>}
    </li>
  );
}

render(<App />, document.getElementById('app')!);
