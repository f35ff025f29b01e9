import { describe, expect, it } from '@jest/globals';
import { parseCommandLine } from './commands.js';
import { BacktestUsageError, parseDays, ruleFromFlags } from './backtest.js';

describe('backtest command line', () => {
  it('reads the rule from the flags, with the defaults', () => {
    const { flags } = parseCommandLine(['backtest', '--simulate', '7d', '--min-ev', '2', '--kelly', '0.25']);
    expect(ruleFromFlags(flags)).toEqual({
      minEv: 2,
      devig: 'power',
      books: null,
      staking: { kind: 'kelly', fraction: 0.25, cap: 0.05 },
      delaySeconds: 0,
      bankroll: 1000,
    });
    expect(ruleFromFlags({ flat: '2', books: 'draftkings, FanDuel', devig: 'shin', delay: '30' })).toMatchObject({
      staking: { kind: 'flat', units: 2 },
      books: ['draftkings', 'fanduel'],
      devig: 'shin',
      delaySeconds: 30,
    });
  });

  it('refuses contradictory or out-of-range flags', () => {
    expect(() => ruleFromFlags({ flat: '1', kelly: '0.25' })).toThrow(BacktestUsageError);
    expect(() => ruleFromFlags({ cap: '0.1' })).toThrow('--cap applies to --kelly');
    expect(() => ruleFromFlags({ kelly: '1.5' })).toThrow('kelly fraction');
    expect(() => ruleFromFlags({ devig: 'magic' })).toThrow('--devig');
    expect(() => ruleFromFlags({ 'min-ev': 'two' })).toThrow('--min-ev must be a number');
    expect(() => parseCommandLine(['backtest', '--simulate', '7d', '--bogus'])).toThrow('Unknown option');
  });

  it('reads days as 7d, 7 or 0.5d', () => {
    expect(parseDays('7d')).toBe(7);
    expect(parseDays('7')).toBe(7);
    expect(parseDays('0.5d')).toBe(0.5);
    expect(() => parseDays('7x')).toThrow(BacktestUsageError);
    expect(() => parseDays('0d')).toThrow(BacktestUsageError);
    expect(() => parseDays('61d')).toThrow(BacktestUsageError);
  });
});
