import { describe, expect, it } from '@jest/globals';
import { decodeText, deepTextProblem, fieldsProblem, MAX_TEXT_LENGTH, textProblem } from './text.js';

describe('textProblem: what PostgreSQL cannot store (or would alter)', () => {
  it.each([
    ['Denver\u0000Nuggets', /NUL/],
    ['half a pair \ud83d', /lone UTF-16 surrogate \(U\+D83D\)/],
    ['\udc00 trailing half', /lone UTF-16 surrogate \(U\+DC00\)/],
    ['Caf\ufffd', /not valid UTF-8/],
    ['bell\u0007', /control character U\+0007/],
    ['x'.repeat(MAX_TEXT_LENGTH + 1), /501 characters long/],
  ])('refuses %j', (s, why) => {
    expect(textProblem(s)).toMatch(why);
  });

  it.each(['Atlético Madrid', 'Bodø/Glimt', 'Kylian Mbappé', '=HYPERLINK("http://x","y")', 'emoji 🏀 pair', 'tab\there', ''])(
    'keeps %j',
    (s) => {
      expect(textProblem(s)).toBeNull();
    },
  );

  it('names the field', () => {
    expect(fieldsProblem({ sportsbook: 'draftkings', home_team: 'A\u0000' })).toBe(
      'home_team contains a NUL character (U+0000), which the database cannot store',
    );
    expect(fieldsProblem({ a: 1, b: null, c: 'ok' })).toBeNull();
  });

  it('looks inside nested values, keys included', () => {
    expect(deepTextProblem({ gameState: { clock: ['1:00', 'x\u0000'] } }, 'u')).toMatch(/^u\.gameState\.clock\[1\] contains a NUL/);
    expect(deepTextProblem({ ['k\u0000']: 1 }, 'u')).toMatch(/^u key contains a NUL/);
    expect(deepTextProblem({ a: [1, 'b', { c: true }] })).toBeNull();
  });
});

describe('decodeText', () => {
  it('drops a UTF-8 BOM, reads UTF-16 with its BOM, and marks bytes that are not UTF-8', () => {
    expect(decodeText(Buffer.from('\ufeffa,b', 'utf8'))).toBe('a,b');
    expect(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Zürich', 'utf16le')]))).toBe('Zürich');
    // "Zürich" in Latin-1 inside a UTF-8 file: the ü byte (0xFC) is not UTF-8.
    expect(decodeText(Buffer.from([0x5a, 0xfc, 0x72, 0x69, 0x63, 0x68]))).toBe('Z\ufffdrich');
  });
});
