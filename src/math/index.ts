/** Pure betting maths: odds, devig, EV, Kelly, arbitrage, distributions, middles and scores. */
export * from './arbitrage.js';
export * from './devig.js';
export * from './distributions.js';
export * from './ev.js';
export * from './kelly.js';
export * from './middles.js';
export * from './normal.js';
export * from './odds.js';
export * from './pmf.js';
export * from './scores.js';
export * from './line-fit.js';
export * from './backtest.js';
