import { ApiKeys1763700000000 } from '../../migrations/1763700000000-ApiKeys.js';
import { Board1763800000000 } from '../../migrations/1763800000000-Board.js';
import { Splits1763900000000 } from '../../migrations/1763900000000-Splits.js';
import { Futures1764100000500 } from '../../migrations/1764100000500-Futures.js';
import { ClosingLinesClv1764150000000 } from '../../migrations/1764150000000-ClosingLinesClv.js';
import { Accounts1764200000000 } from '../../migrations/1764200000000-Accounts.js';
import { MarketData1764200000001 } from '../../migrations/1764200000001-MarketData.js';
import { AccountAddons1764300000000 } from '../../migrations/1764300000000-AccountAddons.js';
import { FuturesSources1764300000100 } from '../../migrations/1764300000100-FuturesSources.js';
import { ClvMethodVoid1764300024000 } from '../../migrations/1764300024000-ClvMethodVoid.js';
import { LineHistory1764400000000 } from '../../migrations/1764400000000-LineHistory.js';
import { ContractQuotes1764500000000 } from '../../migrations/1764500000000-ContractQuotes.js';

/** Every migration, oldest first. */
export const MIGRATIONS = [
  ApiKeys1763700000000,
  Board1763800000000,
  Splits1763900000000,
  Futures1764100000500,
  ClosingLinesClv1764150000000,
  Accounts1764200000000,
  MarketData1764200000001,
  AccountAddons1764300000000,
  FuturesSources1764300000100,
  ClvMethodVoid1764300024000,
  LineHistory1764400000000,
  ContractQuotes1764500000000,
];
