import type { Type } from '@nestjs/common';
import { ArbitrageModule } from './arbitrage/arbitrage.module.js';
import { EvModule } from './ev/ev.module.js';
import { LowHoldModule } from './low-hold/low-hold.module.js';
import { MiddlesModule } from './middles/middles.module.js';

/**
 * The opportunity types the service runs. Each is a module of its own folder that registers one Detector with
 * the detection engine; they are listed (stream snapshots, the API document's tier table) in this order.
 * Adding a type: its folder, and one line here (README "Extending").
 */
export const OPPORTUNITY_TYPES: readonly Type[] = [EvModule, ArbitrageModule, MiddlesModule, LowHoldModule];
