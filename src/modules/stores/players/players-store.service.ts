import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { EventBus } from '../../../common/bus/event-bus.js';
import type { PlayerSighting } from '../../../domain/players.js';
import { PLAYERS_TOPIC } from '../../../domain/topics.js';
import { PlayersStore } from './players-store.js';

/**
 * The players store: every player the sources quoted (props on the board, player futures and awards), with the
 * team the latest quote naming one gives. Ingestion hands it each batch's sightings (`observe`), which go out on
 * the bus to the other instances; at start ingestion replays the board's props and the futures store's player
 * markets into it (a team comes back with the next quote naming it). The players read module reads `store`.
 */
@Injectable()
export class PlayersStoreService implements OnApplicationBootstrap {
  readonly store = new PlayersStore();

  constructor(private readonly bus: EventBus) {}

  onApplicationBootstrap(): void {
    this.bus.subscribe<PlayerSighting[]>(PLAYERS_TOPIC, (s, remote) => {
      if (remote) this.store.observe(s);
    });
  }

  /** Takes sightings from this instance's intake (publishes them when something changed, `publish`). */
  observe(sightings: readonly PlayerSighting[], publish = true): void {
    if (!sightings.length) return;
    if (this.store.observe(sightings) && publish) this.bus.publish(PLAYERS_TOPIC, sightings, { remoteOnly: true });
  }
}
