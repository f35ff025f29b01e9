import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString } from 'class-validator';
import { BaseQuery, BooleanParam, CsvList, SearchText, StringParam } from '../../../common/http/query.js';

export class SportsQuery extends BaseQuery {
  @ApiPropertyOptional({ description: 'Include sports with no current events', default: false, type: Boolean })
  @IsOptional()
  @BooleanParam()
  @IsBoolean({ message: 'include_empty must be true or false' })
  include_empty?: boolean;
}

export class LeaguesQuery extends SportsQuery {
  @ApiPropertyOptional({ description: 'Sport id(s), comma-separated', example: 'basketball,hockey' })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  sport?: string[];
}

export class SportsbooksQuery extends BaseQuery {
  @ApiPropertyOptional({ enum: ['US', 'UK', 'EU', 'AU', 'GLOBAL'], description: 'Only books serving this region' })
  @IsOptional()
  @StringParam()
  @IsString()
  region?: string;

  @ApiPropertyOptional({ type: Boolean, description: 'true: sharp books only; false: the others' })
  @IsOptional()
  @BooleanParam()
  @IsBoolean({ message: 'sharp must be true or false' })
  sharp?: boolean;

  @ApiPropertyOptional({ type: Boolean, default: false, description: 'The configured catalog, whether or not a book has data now' })
  @IsOptional()
  @BooleanParam()
  @IsBoolean({ message: 'catalog must be true or false' })
  catalog?: boolean;

  @ApiPropertyOptional({ type: Boolean, default: false, description: 'Include unlisted books' })
  @IsOptional()
  @BooleanParam()
  @IsBoolean({ message: 'include_unlisted must be true or false' })
  include_unlisted?: boolean;

  @ApiPropertyOptional({ type: Boolean, default: false, description: 'Include books with no events now (status inactive)' })
  @IsOptional()
  @BooleanParam()
  @IsBoolean({ message: 'include_inactive must be true or false' })
  include_inactive?: boolean;
}

export class MarketsQuery extends BaseQuery {
  @ApiPropertyOptional({ description: 'Only markets offered in this sport', example: 'basketball' })
  @IsOptional()
  @StringParam()
  @IsString()
  sport?: string;
}

export class TeamsQuery extends BaseQuery {
  @ApiPropertyOptional({ example: 'basketball' })
  @IsOptional()
  @StringParam()
  @IsString()
  sport?: string;

  @ApiPropertyOptional({ example: 'nba' })
  @IsOptional()
  @StringParam()
  @IsString()
  league?: string;

  @ApiPropertyOptional({
    description: 'Text search over names and aliases (partial, case-insensitive; must contain a letter or digit)',
    example: 'lakers',
  })
  @IsOptional()
  @SearchText()
  q?: string;
}
