import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
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

  it('answers as the full checks do on any text (the one-scan screen lets nothing through that they refuse)', () => {
    // The checks without the screen, written out again: length, NUL, U+FFFD, a lone surrogate, a control character.
    const full = (s: string): string | null => {
      if (s.length > MAX_TEXT_LENGTH) return 'length';
      if (s.includes('\u0000')) return 'nul';
      if (s.includes('\ufffd')) return 'fffd';
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        const high = c >= 0xd800 && c <= 0xdbff;
        const low = c >= 0xdc00 && c <= 0xdfff;
        if (high && !(i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff)) return 'surrogate';
        if (high) i++;
        else if (low) return 'surrogate';
      }
      // eslint-disable-next-line no-control-regex -- matching control characters is the point
      return /[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s) ? 'control' : null;
    };
    const kind = (p: string | null) =>
      p === null
        ? null
        : /long/.test(p)
          ? 'length'
          : /NUL/.test(p)
            ? 'nul'
            : /UTF-8/.test(p)
              ? 'fffd'
              : /surrogate/.test(p)
                ? 'surrogate'
                : 'control';
    const special = fc.constantFrom('\u0000', '\u0007', '\t', '\n', '\u007f', '\ufffd', '\ud83d', '\udc00', '🏀', 'é', 'a', ' ');
    fc.assert(
      fc.property(fc.array(fc.oneof(special, fc.string({ maxLength: 3 })), { maxLength: 12 }), (parts) => {
        const s = parts.join('');
        expect(kind(textProblem(s))).toBe(full(s));
      }),
      { numRuns: 2000 },
    );
  });

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
