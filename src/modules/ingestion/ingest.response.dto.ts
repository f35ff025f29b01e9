import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

const COUNTS_BY_REASON = {
  type: 'object',
  additionalProperties: { type: 'integer' },
  description: 'Rejected quotes per reason (invalid_price, unknown_sportsbook, ...)',
} as const;

export class RejectionDto {
  @ApiProperty({ description: 'Index of the quote in the batch' }) index: number;
  @ApiProperty({ example: 'invalid_price' }) reason: string;
  @ApiProperty() message: string;
}

export class RegisteredLeagueDto {
  @ApiProperty() id: string;
  @ApiProperty() sport: string;
  @ApiProperty({ description: "The source's spelling" }) from: string;
}

export class RegisteredBookDto {
  @ApiProperty() id: string;
  @ApiProperty({ description: "The source's spelling" }) from: string;
}

export class RegisteredDto {
  @ApiProperty({ type: [RegisteredLeagueDto] }) leagues: RegisteredLeagueDto[];
  @ApiProperty({ type: [RegisteredBookDto] }) books: RegisteredBookDto[];
}

/** What happened to a batch's event updates or splits snapshots. */
export class ItemsReportDto {
  @ApiProperty({ description: 'Items in the batch' }) received: number;
  @ApiProperty() accepted: number;
  @ApiProperty({ ...COUNTS_BY_REASON, description: 'Refused items per reason (invalid_text, invalid_time, ...)' }) rejected: Record<
    string,
    number
  >;
  @ApiProperty({ type: [RejectionDto], description: 'Each refused item: its index in the batch list, reason and message' })
  rejections: RejectionDto[];
}

/** What one ingested batch did (pipeline.ts IngestReport), and whether it is in the database yet. */
export class IngestReportDto {
  @ApiProperty({ example: 'import' }) source: string;
  @ApiProperty({ description: 'Quotes in the batch' }) quotes: number;
  @ApiProperty() accepted: number;
  @ApiProperty({ description: 'Accepted quotes that changed the board' }) changed: number;
  @ApiProperty() unchanged: number;
  @ApiProperty() removed: number;
  @ApiProperty(COUNTS_BY_REASON) rejected: Record<string, number>;
  @ApiProperty({ type: [RejectionDto] }) rejections: RejectionDto[];
  @ApiPropertyOptional({ type: RegisteredDto, description: 'Leagues and books first seen in this batch and registered' })
  registered?: RegisteredDto;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'integer' },
    description: 'Accepted rows of market types the catalog does not know, per type (shown, never in detection)',
  })
  displayOnly?: Record<string, number>;
  @ApiPropertyOptional({ type: ItemsReportDto, description: "The batch's event updates (status, game state), when it has any" })
  events?: ItemsReportDto;
  @ApiPropertyOptional({ type: ItemsReportDto, description: "The batch's splits snapshots, when it has any" })
  splits?: ItemsReportDto;
  @ApiProperty({ description: 'false: the database was unreachable; the prices are buffered and written when it returns' })
  durable: boolean;
}

/** Ingestion totals since the start. */
export class IngestTotalsDto {
  @ApiProperty() batches: number;
  @ApiProperty() quotes: number;
  @ApiProperty() accepted: number;
  @ApiProperty() changed: number;
  @ApiProperty() removed: number;
  @ApiProperty(COUNTS_BY_REASON) rejected: Record<string, number>;
}
