import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The catalog's block for a team (README "Reference blocks"): present when the team is in the catalog. */
export class TeamRefDto {
  @ApiProperty({ description: 'Catalog team id', example: 'nba_boston_celtics' }) id: string;
  @ApiProperty({ description: 'Numeric id of the team', example: 2 }) numerical_id: number;
  @ApiProperty({ description: 'Team name', example: 'Boston Celtics' }) name: string;
  @ApiProperty({ description: 'Abbreviation', example: 'BOS' }) abbreviation: string;
  @ApiPropertyOptional({ format: 'uri', description: 'URL of the team logo, when the catalog has one (absent otherwise)' }) logo?: string;
  @ApiPropertyOptional({ description: 'Home city or region (absent when the catalog has none, as for players)', example: 'Boston' })
  city?: string;
  @ApiPropertyOptional({ description: 'Nickname (absent when the club has none)', example: 'Celtics' }) mascot?: string;
  @ApiPropertyOptional({ description: 'Conference (NBA, NFL, NHL, MLB league, MLS, college): absent elsewhere', example: 'Eastern' })
  conference?: string;
  @ApiPropertyOptional({
    description: "Division (NBA, NFL, NHL, MLB; a fighter's weight class): absent elsewhere",
    example: 'Atlantic',
  })
  division?: string;
}

export class SportRefDto {
  @ApiProperty({ description: 'Sport id', example: 'basketball' }) id: string;
  @ApiProperty({ description: 'Numeric id of the sport', example: 1 }) numerical_id: number;
  @ApiProperty({ description: 'Sport name', example: 'Basketball' }) name: string;
}

/** The catalog's block for a league, a market type or a book. */
export class LabelRefDto {
  @ApiProperty({ description: 'Catalog id', example: 'nba' }) id: string;
  @ApiProperty({ type: Number, nullable: true, description: 'Numeric id, when the catalog has one', example: 7 }) numerical_id:
    number | null;
  @ApiProperty({ description: 'Display label', example: 'NBA' }) label: string;
}

/** The catalog's reference blocks of an item, each present only when the entity is in the catalog. */
export class RefBlocksDto {
  @ApiPropertyOptional({ type: TeamRefDto, description: 'The home team' }) home?: TeamRefDto;
  @ApiPropertyOptional({ type: TeamRefDto, description: 'The away team' }) away?: TeamRefDto;
  @ApiPropertyOptional({ type: SportRefDto }) sport_ref?: SportRefDto;
  @ApiPropertyOptional({ type: LabelRefDto, description: 'The league' }) league_ref?: LabelRefDto;
  @ApiPropertyOptional({ type: LabelRefDto, description: 'The market type' }) market_ref?: LabelRefDto;
  @ApiPropertyOptional({ type: LabelRefDto, description: 'The book' }) sportsbook_ref?: LabelRefDto;
}
