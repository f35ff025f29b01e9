import type { Catalog } from '../../config/catalog.js';
import type { AppConfig } from '../../config/env.js';
import type { OddsProvider } from '../../domain/types.js';
import { OddsApiProvider } from './odds-api/odds-api.provider.js';

/** The providers PROVIDERS names (default: the simulator; `none` for no live source). Loaded only when named. */
export async function createProviders(config: AppConfig, catalog: Catalog, now: number): Promise<OddsProvider[]> {
  const out: OddsProvider[] = [];
  for (const name of config.providers) {
    switch (name) {
      case 'simulator': {
        const { MarketSimulator } = await import('./simulator/simulator.js');
        out.push(new MarketSimulator(catalog, { ...config.simulator, start: now }));
        // Its futures markets (championships, awards, win totals, ...): a provider of their own.
        const { FuturesSimulator } = await import('./simulator/futures-sim.js');
        out.push(new FuturesSimulator(catalog, { seed: config.simulator.seed }));
        break;
      }
      case 'odds_api':
        out.push(new OddsApiProvider(catalog, config.oddsApi));
        break;
      default:
        throw new Error(`unknown provider ${name}`);
    }
  }
  return out;
}
