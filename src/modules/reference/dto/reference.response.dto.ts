import { ApiProperty } from '@nestjs/swagger';
import { ListMetaDto, PageMetaDto } from '../../../common/http/api-responses.js';

/** A sport, with live counts from the caller's board view (reference.service.ts). */
export class SportDto {
  @ApiProperty({ example: 'basketball' }) id: string;
  @ApiProperty({ example: 'basketball' }) slug: string;
  @ApiProperty({ example: 1 }) numerical_id: number;
  @ApiProperty({ example: 'Basketball' }) name: string;
  @ApiProperty({ description: 'Has events now' }) active: boolean;
  @ApiProperty({ example: 42 }) event_count: number;
  @ApiProperty({ example: 3 }) live_count: number;
  @ApiProperty({ type: [String], description: 'League ids (with events, unless include_empty)', example: ['nba', 'ncaab'] })
  leagues: string[];
}

export class LeagueDto {
  @ApiProperty({ example: 'nba' }) id: string;
  @ApiProperty({ example: 'nba' }) slug: string;
  @ApiProperty({ type: Number, nullable: true, description: 'null for a league registered on first sight', example: 7 }) numerical_id:
    number | null;
  @ApiProperty({ example: 'National Basketball Association' }) name: string;
  @ApiProperty({ example: 'NBA' }) label: string;
  @ApiProperty({ description: 'false for a league a feed sent that the catalog does not list' }) in_catalog: boolean;
  @ApiProperty({ example: 'basketball' }) sport: string;
  @ApiProperty({ example: 'basketball' }) sport_id: string;
  @ApiProperty() active: boolean;
  @ApiProperty() event_count: number;
  @ApiProperty() live_count: number;
}

export class SportsbookDto {
  @ApiProperty({ example: 'draftkings' }) id: string;
  @ApiProperty({ example: 'draftkings' }) slug: string;
  @ApiProperty({ type: Number, nullable: true }) numerical_id: number | null;
  @ApiProperty({ example: 'draftkings' }) name: string;
  @ApiProperty({ example: 'DraftKings' }) display_name: string;
  @ApiProperty() has_live_odds: boolean;
  @ApiProperty() has_player_props: boolean;
  @ApiProperty({ type: [String], example: ['US'] }) regions: string[];
  @ApiProperty() is_sharp: boolean;
  @ApiProperty({ enum: ['active', 'inactive'] }) status: string;
  @ApiProperty() active: boolean;
  @ApiProperty({ description: 'Events the book prices now' }) event_count: number;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) last_update: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The lowest tier that may name the book' }) requires_tier: string | null;
  @ApiProperty() unlisted: boolean;
  @ApiProperty({ description: 'false for a book a feed sent that the catalog does not describe' }) in_catalog: boolean;
  @ApiProperty({ type: [String], example: ['odds', 'live', 'player_props', 'deep_links'] }) features: string[];
}

export class SportsbooksFiltersDto {
  @ApiProperty({ type: String, nullable: true }) region: string | null;
  @ApiProperty({ type: Boolean, nullable: true }) sharp: boolean | null;
  @ApiProperty() catalog: boolean;
  @ApiProperty() include_unlisted: boolean;
  @ApiProperty() include_inactive: boolean;
}

/** `meta` of /sportsbooks (one page holding every book). */
export class SportsbooksMetaDto extends PageMetaDto {
  @ApiProperty({ format: 'date-time' }) updated_at: string;
  @ApiProperty({ type: SportsbooksFiltersDto }) filters: SportsbooksFiltersDto;
}

export class MarketDto {
  @ApiProperty({ example: 'point_spread' }) id: string;
  @ApiProperty() numerical_id: number;
  @ApiProperty({ example: 'Point Spread' }) name: string;
  @ApiProperty() description: string;
  @ApiProperty({ description: 'The market has a line (spread, total)' }) hasLine: boolean;
  @ApiProperty({ enum: ['main', 'spread', 'total', 'props', 'other'] }) category: string;
  @ApiProperty({ type: [String] }) examples: string[];
  @ApiProperty({ description: 'Events priced for it now' }) event_count: number;
  @ApiProperty({ description: 'Rows priced for it now' }) selection_count: number;
  @ApiProperty({ type: [String] }) sports: string[];
}

/** `meta` of /markets: counts and the aliases a `market` filter accepts. */
export class MarketsMetaDto extends ListMetaDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
    description: 'Each alias and the market types it stands for',
  })
  aliases: Record<string, string[]>;
}

export class TeamDto {
  @ApiProperty({ example: 'boston-celtics' }) id: string;
  @ApiProperty() numerical_id: number;
  @ApiProperty({ example: 'Boston Celtics' }) name: string;
  @ApiProperty({ example: 'BOS' }) abbreviation: string;
  @ApiProperty({ example: 'basketball' }) sport: string;
  @ApiProperty({ type: [String], example: ['nba'] }) leagues: string[];
  @ApiProperty({ type: [String] }) aliases: string[];
  @ApiProperty({ type: String, nullable: true }) city: string | null;
  @ApiProperty({ type: String, nullable: true }) mascot: string | null;
  @ApiProperty({ type: String, nullable: true }) conference: string | null;
  @ApiProperty({ type: String, nullable: true }) division: string | null;
  @ApiProperty() event_count: number;
  @ApiProperty() live_count: number;
}

/** `meta` of /teams. */
export class TeamsMetaDto extends ListMetaDto {
  @ApiProperty({ type: String, nullable: true }) sport_filter: string | null;
  @ApiProperty({ type: String, nullable: true }) league_filter: string | null;
  @ApiProperty({ type: String, nullable: true }) query: string | null;
  @ApiProperty({ description: 'Events of the listed teams (a game counts for both teams)' }) total_events: number;
  @ApiProperty() total_live: number;
  @ApiProperty({ format: 'date-time' }) updated: string;
}
