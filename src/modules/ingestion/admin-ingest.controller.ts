import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { RouteConfig } from '@nestjs/platform-fastify';
import { PER_ITEM_TEXT } from '../../common/http/text-params.js';
import { AdminOnly } from '../../common/auth/decorators.js';
import { ApiDataResponse } from '../../common/http/api-responses.js';
import { envelope } from '../../common/http/envelope.js';
import type { EventUpdate, Quote, SplitsInput } from '../../domain/types.js';
import { BoardService } from '../board/board.service.js';
import { IngestReportDto, IngestTotalsDto } from './ingest.response.dto.js';
import { IngestionService } from './ingestion.service.js';

export class IngestBody {
  @ApiPropertyOptional({ example: 'import', description: 'Name of the source, for logs and reports' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  source?: string;

  @ApiProperty({ description: 'Quotes (see src/domain/types.ts Quote); at most 5000 per call', type: 'array', items: { type: 'object' } })
  @IsArray()
  @ArrayMaxSize(5000)
  @IsObject({ each: true })
  quotes: Quote[];

  @ApiPropertyOptional({
    description: 'Event updates (status, game state), applied before the quotes; an import sends its past events as ended',
    type: 'array',
    items: { type: 'object' },
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(5000)
  @IsObject({ each: true })
  events?: EventUpdate[];

  @ApiPropertyOptional({
    description:
      'Betting splits snapshots (see src/domain/types.ts SplitsInput: book, league, teams, startTime, fetchedAt, spread/total/moneyline shares 0-1)',
    type: 'array',
    items: { type: 'object' },
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(5000)
  @IsObject({ each: true })
  splits?: SplitsInput[];

  @ApiPropertyOptional({ description: 'Row ids to remove (an import withdrawing what it brought before)', type: [String] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20000)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  remove_ids?: string[];

  @ApiPropertyOptional({
    description:
      'true: the batch is history (a replayed capture): its futures go to markets of their own, kept out of the live futures lists, +EV and low-hold',
  })
  @IsOptional()
  @IsBoolean()
  history?: boolean;

  @ApiPropertyOptional({ description: "true: the report lists each quote's row id (`ids`, null when rejected)" })
  @IsOptional()
  @IsBoolean()
  report_ids?: boolean;
}

/** The operator's ingestion channel (used by `npm run cli -- import` while a server runs). */
@ApiTags('Admin')
@Controller('admin/ingest')
export class AdminIngestController {
  constructor(
    private readonly ingestion: IngestionService,
    private readonly boards: BoardService,
  ) {}

  @Post()
  @AdminOnly()
  @HttpCode(200)
  // The items' text is checked item by item at the pipeline's edge: one refused item never refuses its batch.
  @RouteConfig({ [PER_ITEM_TEXT]: ['quotes', 'events', 'splits'] })
  @ApiDataResponse(IngestReportDto, { description: 'What the batch did' })
  @ApiOperation({
    summary:
      'Ingest a batch of quotes, event updates and splits through the normal pipeline; returns what was accepted and why the rest was rejected',
    description:
      'Answers once the prices are written to the database (`durable: true`); if the database is unreachable they stay buffered in memory and are written when it returns (`durable: false`).',
  })
  async ingest(@Body() body: IngestBody) {
    const report = this.ingestion.ingest({
      source: body.source ?? 'import',
      quotes: body.quotes,
      events: body.events,
      splits: body.splits,
      removeIds: body.remove_ids,
      reportIds: body.report_ids,
      history: body.history,
    });
    const durable = (await this.boards.flushed(5000)) && (await this.ingestion.futuresFlushed(5000));
    return envelope({ ...report, durable });
  }

  @Get()
  @AdminOnly()
  @ApiDataResponse(IngestTotalsDto, { description: 'Totals since start' })
  @ApiOperation({ summary: 'Ingestion totals since start' })
  status() {
    return envelope(this.ingestion.totals);
  }
}
