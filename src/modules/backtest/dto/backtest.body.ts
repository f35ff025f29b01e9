import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsNumber, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { DEVIG_METHODS } from '../../../math/index.js';
import { MAX_SIMULATED_DAYS } from '../backtest.rule.js';

const num = { allowNaN: false, allowInfinity: false };

/** `POST /historical/backtest` body: a simulated window and a rule. */
export class BacktestBody {
  @ApiProperty({ description: `Simulated days to replay (more than 0, at most ${MAX_SIMULATED_DAYS})`, example: 2 })
  @IsNumber(num, { message: 'days must be a number' })
  @Min(0.05, { message: 'days must be at least 0.05' })
  @Max(MAX_SIMULATED_DAYS, { message: `days must be at most ${MAX_SIMULATED_DAYS}` })
  days: number;

  @ApiPropertyOptional({ description: 'Simulator seed (one seed, one world; default 42)', example: 42 })
  @IsOptional()
  @IsInt({ message: 'seed must be an integer' })
  @Min(0, { message: 'seed must be >= 0' })
  @Max(2 ** 31 - 1, { message: 'seed must be <= 2147483647' })
  seed?: number;

  @ApiPropertyOptional({ description: 'Events on the simulated board (default 12)', example: 12 })
  @IsOptional()
  @IsInt({ message: 'events must be an integer' })
  @Min(2, { message: 'events must be >= 2' })
  @Max(200, { message: 'events must be <= 200' })
  events?: number;

  @ApiPropertyOptional({ description: 'Minimum EV at detection, percent (default 2)', example: 2 })
  @IsOptional()
  @IsNumber(num, { message: 'min_ev must be a number' })
  @Min(0, { message: 'min_ev must be >= 0' })
  @Max(100, { message: 'min_ev must be <= 100' })
  min_ev?: number;

  @ApiPropertyOptional({ description: 'Devig method (default power)', enum: DEVIG_METHODS, example: 'power' })
  @IsOptional()
  @IsIn(DEVIG_METHODS, { message: `devig must be one of ${DEVIG_METHODS.join(', ')}` })
  devig?: string;

  @ApiPropertyOptional({ description: 'Books whose prices may be bet (default: every book)', example: ['draftkings', 'fanduel'] })
  @IsOptional()
  @IsArray({ message: 'books must be an array of book ids' })
  @ArrayMinSize(1, { message: 'books must not be empty' })
  @ArrayMaxSize(100, { message: 'books may list at most 100 books' })
  @IsString({ each: true, message: 'every book must be a string' })
  @Matches(/^[a-z0-9_]{1,64}$/, { each: true, message: 'every book must be a book id (lower-case letters, digits, underscores)' })
  books?: string[];

  @ApiPropertyOptional({ description: 'Staking: flat or kelly (default flat)', enum: ['flat', 'kelly'], example: 'kelly' })
  @IsOptional()
  @IsIn(['flat', 'kelly'], { message: 'stake must be flat or kelly' })
  stake?: 'flat' | 'kelly';

  @ApiPropertyOptional({ description: 'Flat stake in units (default 1)', example: 1 })
  @IsOptional()
  @IsNumber(num, { message: 'units must be a number' })
  units?: number;

  @ApiPropertyOptional({ description: 'Kelly fraction (default 0.25)', example: 0.25 })
  @IsOptional()
  @IsNumber(num, { message: 'kelly_fraction must be a number' })
  kelly_fraction?: number;

  @ApiPropertyOptional({ description: 'Cap on a Kelly stake, fraction of the bankroll (default 0.05)', example: 0.05 })
  @IsOptional()
  @IsNumber(num, { message: 'cap must be a number' })
  cap?: number;

  @ApiPropertyOptional({ description: 'Reaction time in seconds: the bet takes the price in force then (default 0)', example: 30 })
  @IsOptional()
  @IsNumber(num, { message: 'delay_seconds must be a number' })
  delay_seconds?: number;

  @ApiPropertyOptional({ description: 'Starting bankroll in units (default 1000)', example: 1000 })
  @IsOptional()
  @IsNumber(num, { message: 'bankroll must be a number' })
  bankroll?: number;
}
