import { describe, expect, it } from '@jest/globals';
import { isDrawSelection, readContract } from './selections.js';

describe('isDrawSelection', () => {
  it.each([
    'Draw',
    'Tie',
    'X',
    'x',
    'Reg Time: Tie',
    'Regulation Time Draw',
    'Draw (90 min)',
    'The Draw',
    'Tie Game',
    'Will the match end in a draw?',
    'DRAW',
  ])('%j is the draw', (s) => {
    expect(isDrawSelection(s)).toBe(true);
  });
  it.each(['Arsenal', 'Drawbridge FC', 'Tie Break Kings', 'Xavi', 'Over 2.5', 'Mexico', ''])('%j is not', (s) => {
    expect(isDrawSelection(s)).toBe(false);
  });
});

describe('readContract', () => {
  it.each([
    ['Arsenal: Yes', 'other', 'yes', 'Arsenal'],
    ['Arsenal: No', 'home', 'no', 'Arsenal'],
    ['Will Arsenal win? - No', 'other', 'no', 'Arsenal'],
    ['No - Chelsea', 'other', 'no', 'Chelsea'],
    // An en dash (U+2013) separates as a hyphen does.
    ['Will Arsenal win? \u2013 Yes', 'other', 'yes', 'Arsenal'],
    ['No \u2013 Chelsea', 'other', 'no', 'Chelsea'],
    ['Reg Time: Tie: Yes', 'other', 'yes', 'Reg Time: Tie'],
    ['Arsenal', 'home_yes', 'yes', 'Arsenal'],
    ['Arsenal', 'away_no', 'no', 'Arsenal'],
  ])('%j (%s) is a %s on %j', (selection, type, answer, subject) => {
    expect(readContract(selection, type)).toEqual({ answer, subject });
  });
  it.each([
    ['Arsenal', 'home'],
    ['Fernando Tatis Jr.', 'other'],
    ['Over', 'over'],
  ])('%j (%s) is no contract', (selection, type) => {
    expect(readContract(selection, type)).toEqual({ answer: null, subject: selection });
  });
});
