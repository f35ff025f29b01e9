import { describe, expect, it } from '@jest/globals';
import { splitName } from '../../../domain/players.js';
import { PlayersStore, toPlayerItem } from './players-store.js';

const at = Date.parse('2026-07-13T00:00:00Z');
const mlb = { sport: 'baseball', league: 'mlb' };

describe('players store', () => {
  it('one player per canonical id whatever the spelling; the first spelling is the display name', () => {
    const s = new PlayersStore();
    expect(
      s.observe([
        { ...mlb, name: 'José Ramírez', at },
        { ...mlb, name: 'Jose Ramirez', at: at + 1 },
        { ...mlb, name: '  JOSE RAMIREZ ', at },
      ]),
    ).toBe(1);
    expect([...s.players.keys()]).toEqual(['baseball_mlb_jose_ramirez']);
    expect(toPlayerItem(s.players.get('baseball_mlb_jose_ramirez')!)).toEqual({
      id: 'baseball_mlb_jose_ramirez',
      display_name: 'José Ramírez',
      first_name: 'José',
      last_name: 'Ramírez',
      leagues: ['mlb'],
    });
  });

  it('keeps the team of the latest sighting naming one', () => {
    const s = new PlayersStore();
    const seen = (teamId: string | null, t: number) => s.observe([{ ...mlb, name: 'Juan Soto', teamId, teamName: teamId, at: t }]);
    seen('new_york_mets', at);
    seen(null, at + 10); // names no team: keeps it
    seen('new_york_yankees', at - 10); // older: ignored
    expect(s.players.get('baseball_mlb_juan_soto')!.teamId).toBe('new_york_mets');
    expect(seen('new_york_yankees', at + 20)).toBe(1);
    expect(toPlayerItem(s.players.get('baseball_mlb_juan_soto')!).team_id).toBe('new_york_yankees');
  });

  it('splits a name into first and last; a one-word name has neither', () => {
    expect(splitName('Bobby Witt Jr.')).toEqual({ first: 'Bobby', last: 'Witt Jr.' });
    expect(splitName('Ichiro')).toEqual({ first: null, last: null });
  });
});

describe('names as feeds spell them', () => {
  it('a team in brackets after the name is the team', async () => {
    const { nameAndTeam } = await import('../../../domain/players.js');
    expect(nameAndTeam('Shea Langeliers (Athletics)')).toEqual({ name: 'Shea Langeliers', team: 'Athletics' });
    expect(nameAndTeam(' Bobby Witt Jr. ')).toEqual({ name: 'Bobby Witt Jr.', team: null });
    expect(nameAndTeam('(Athletics)')).toEqual({ name: '(Athletics)', team: null });
  });
});
