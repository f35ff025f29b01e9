import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { BookParams, EventParams, MarketParam, SportLeagueParams } from '../../../common/http/filter-params.js';
import { IsBoolean, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { BaseQuery, BooleanParam, CsvList, NumberParam, StringParam } from '../../../common/http/query.js';

export class StreamQuery extends IntersectionType(BaseQuery, SportLeagueParams, BookParams, MarketParam, EventParams) {
  @ApiPropertyOptional({
    description: 'odds, opportunities (default), gamestate (enterprise), or all; several comma-separated values mean all of them',
    example: 'all',
  })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  channel?: string[];

  @ApiPropertyOptional({ description: 'Alias of channel' })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  channels?: string[];

  @ApiPropertyOptional({
    description:
      "Alias of channel. Sent alone (without channel or channels), it selects the TypeScript client's profile: unnamed `{type, data, timestamp}` frames, the snapshot starting with `type: initial`",
  })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  type?: string[];

  @ApiPropertyOptional({ description: 'Alias of event (TypeScript SDK)' })
  @IsOptional()
  @CsvList()
  @IsString({ each: true })
  eventId?: string[];

  @ApiPropertyOptional({
    type: Boolean,
    description: 'true: only live prices and opportunities with a live price; false: only pre-game; omitted: both',
  })
  @IsOptional()
  @BooleanParam()
  @IsBoolean({ message: 'live must be true or false' })
  live?: boolean;

  @ApiPropertyOptional({ description: 'Minimum EV % for ev:detected (default 2.0)', example: 2, type: Number })
  @IsOptional()
  @NumberParam()
  @IsNumber({}, { message: 'min_ev must be a number (percent)' })
  @Min(-100)
  @Max(1000)
  min_ev?: number;

  @ApiPropertyOptional({ description: 'Minimum profit % for arb:detected (default 0.5)', example: 0.5, type: Number })
  @IsOptional()
  @NumberParam()
  @IsNumber({}, { message: 'min_profit must be a number (percent)' })
  @Min(0)
  @Max(100)
  min_profit?: number;

  @ApiPropertyOptional({
    description:
      "The frames' form: `spec` (named events, the default), `ts` (the TypeScript client's unnamed `{type, data, timestamp}` frames); `python` and `asyncapi` are the same as `spec` here. The X-Client-Profile header does the same",
    enum: ['spec', 'ts', 'python', 'asyncapi'],
  })
  @IsOptional()
  @StringParam()
  @IsString()
  @MaxLength(16)
  client_profile?: string;

  @ApiPropertyOptional({ description: 'Resume point for clients that cannot send the Last-Event-ID header' })
  @IsOptional()
  @StringParam()
  @IsString()
  @MaxLength(64)
  last_event_id?: string;
}
