import { Injectable } from '@nestjs/common';
import type { FeatureDef } from '../../common/auth/access-policy.js';
import type { Account } from '../../common/auth/account.js';
import { shortHash } from '../../domain/normalise.js';
import type { OddsRow } from '../../domain/odds-row.js';
import { analyzeArbitrage } from '../../math/index.js';
import type { Detector, Json, PresentView, Reads, StreamNames } from '../detection/detector.js';
import { bestOf, groupInfo, guardsOf, impliedTotalAllBooks, isAlternate, usable, type DetectContext } from '../detection/group-info.js';
import type { BookFilter } from '../detection/market-groups.js';
import { ArbitragePresenter } from './arbitrage.presenter.js';
import type { ArbitrageRecord } from './arbitrage.record.js';

/** Profit (percent) above which an arbitrage is taken for a data error (a stale or mistyped price) and left out. */
export const ARB_PROFIT_CAP = 10;

export function arbitrageId(groupKey: string, legs: readonly OddsRow[]): string {
  return shortHash(['arb', groupKey, ...legs.map((l) => `${l.selectionType}:${l.sportsbook}`)]);
}

/** The arbitrage of a group among the books in scope: the best price of every outcome summing below 100%. */
export function detectArbitrage(ctx: DetectContext, groupKey: string, inScope: BookFilter): ArbitrageRecord | null {
  const g = groupInfo(ctx, groupKey);
  if (!g) return null;
  const best = bestOf(g, usable(ctx, g, inScope));
  if (!best) return null;
  const a = analyzeArbitrage(best.legs.map((l) => l.decimal));
  if (!a.isArbitrage || a.profitPercent <= 0 || a.profitPercent > ARB_PROFIT_CAP) return null;
  return {
    kind: 'arbitrage',
    id: arbitrageId(groupKey, best.legs),
    source: groupKey,
    eventId: g.first.eventId,
    marketType: g.first.marketType,
    detectedAt: ctx.now,
    updatedAt: ctx.now,
    legs: best.legs.map((row, i) => ({ row, impliedProbability: 1 / row.decimal, stakePercent: a.stakes[i]! })),
    line: g.first.groupLine,
    impliedTotal: a.impliedTotal,
    profitPercent: a.profitPercent,
    isAlternateLine: isAlternate(ctx.board, g.first),
    guards: guardsOf(g, best.legs),
  };
}

/**
 * Arbitrage as an opportunity type: read on every closed market group, evaluated in each tier's default book
 * set, gated by the tier and the account's arbitrage flag, streamed as `arb:detected` / `arb:expired`.
 */
@Injectable()
export class ArbitrageDetector implements Detector<ArbitrageRecord> {
  readonly kind = 'arbitrage';
  readonly reads: Reads = 'n_way';
  readonly perScope = true;
  readonly feature: FeatureDef = {
    name: 'arbitrage',
    label: 'Arbitrage opportunities',
    title: 'Arbitrage',
    fromTier: 'hobby',
    account: {
      allows: (account: Account) => account.arbitrageEnabled,
      refusal: 'Arbitrage is disabled for this account; ask the operator to enable it (npm run cli -- keys:arbitrage ID on)',
    },
  };
  readonly stream: StreamNames = {
    channel: 'arbitrage',
    type: 'arb',
    detected: 'arb:detected',
    expired: 'arb:expired',
    expiredAt: true,
    threshold: { param: 'min_profit', value: (item) => Number(item.profit_percent) },
  };
  readonly gauge = { name: 'opportunities_arbitrage', help: 'Live arbitrages (all books)' };

  constructor(private readonly presenter: ArbitragePresenter) {}

  /** What all books together cannot offer, no narrower scope can: most groups stop here. */
  mayFind(ctx: DetectContext, source: string): boolean {
    const implied = impliedTotalAllBooks(ctx, source);
    return implied !== null && implied < 1;
  }

  detect(ctx: DetectContext, source: string, inScope: BookFilter): ArbitrageRecord[] {
    const a = detectArbitrage(ctx, source, inScope);
    return a ? [a] : [];
  }

  present(record: ArbitrageRecord, view: PresentView): Json {
    return this.presenter.present(view.board, record, view.now);
  }

  rows(record: ArbitrageRecord): readonly OddsRow[] {
    return record.legs.map((l) => l.row);
  }

  signature(record: ArbitrageRecord): unknown {
    return record.legs.map((l) => [l.row.sportsbook, l.row.decimal]);
  }
}
