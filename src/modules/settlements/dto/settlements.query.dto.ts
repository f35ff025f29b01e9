import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { PageQuery, StringParam, type PageBounds } from '../../../common/http/query.js';

/** Pages of settlements: 100 by default, up to 1000. */
export const SETTLEMENTS_PAGE: PageBounds = { defaultLimit: 100, maxLimit: 1000, maxOffset: 100_000 };

const text = (description: string, example: string) => (target: object, key: string) => {
  ApiPropertyOptional({ description, example })(target, key);
  IsOptional()(target, key);
  StringParam()(target, key);
  IsString({ message: `${key} must be a string` })(target, key);
  MinLength(1, { message: `${key} must not be empty` })(target, key);
  MaxLength(200, { message: `${key} must be at most 200 characters` })(target, key);
};

/** GET /settlements. */
export class SettlementsQuery extends PageQuery(SETTLEMENTS_PAGE) {
  @text('The +EV opportunity id (`id` of /opportunities/ev)', '3f2a9c0d1e4b5a67')
  hash_id?: string;

  @text('Event id', 'nfl_chiefs_bills_2026-11-22_a1')
  game_id?: string;

  @text('Market type', 'point_spread')
  market_type?: string;

  @text('Selection as the odds row names it (case-insensitive)', 'Over')
  selection?: string;

  @text('Player id (`player_id` of the +EV item: sport_league_name)', 'baseball_mlb_corbin_carroll')
  player_id?: string;
}
