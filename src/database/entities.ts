import { AccountEntity, AccountUsageEntity } from '../modules/accounts/account.entity.js';
import { ApiKeyEntity } from '../modules/accounts/api-key.entity.js';
import { EventEntity, OddsEntity, OddsHistoryEntity, OddsRemovalEntity } from '../modules/board/board.entities.js';
import { ClosingLineEntity } from '../modules/closing-lines/closing-lines.entity.js';
import { ClvPredictionEntity } from '../modules/clv/clv.entity.js';
import { FuturesMarketEntity, FuturesPriceEntity } from '../modules/stores/futures/futures.entities.js';
import { SplitsSnapshotEntity } from '../modules/stores/splits/splits.entity.js';
import { LineChangeEntity, LineSeriesEntity } from '../modules/stores/line-history/line-history.entities.js';

/** Every entity of the service; the data source, the CLI and the schema test share this list. */
export const ENTITIES = [
  AccountEntity,
  AccountUsageEntity,
  ApiKeyEntity,
  EventEntity,
  OddsEntity,
  OddsHistoryEntity,
  OddsRemovalEntity,
  SplitsSnapshotEntity,
  FuturesMarketEntity,
  FuturesPriceEntity,
  ClosingLineEntity,
  ClvPredictionEntity,
  LineSeriesEntity,
  LineChangeEntity,
];
