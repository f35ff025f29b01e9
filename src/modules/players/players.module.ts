import { Module, type OnModuleInit } from '@nestjs/common';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import { PlayersStoreModule } from '../stores/players/players-store.module.js';
import { PlayersController } from './players.controller.js';
import { PlayersService } from './players.service.js';

/** Feature `players`: every tier (a reference list, like teams). */
export const PLAYERS_FEATURE = { name: 'players', label: 'Players', fromTier: 'free' } as const;

/** GET /players: the players store as read. */
@Module({
  imports: [PlayersStoreModule],
  controllers: [PlayersController],
  providers: [PlayersService],
})
export class PlayersModule implements OnModuleInit {
  constructor(private readonly policy: AccessPolicy) {}

  onModuleInit(): void {
    this.policy.registerFeature({ ...PLAYERS_FEATURE }, { listed: false });
  }
}
