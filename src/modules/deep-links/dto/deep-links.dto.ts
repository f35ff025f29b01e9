import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { BooleanParam, StringParam } from '../../../common/http/query.js';

const STATE_MESSAGE = 'state must be a two-letter US state code (pa, nj, ...)';

/** `GET /deeplink/{id}` parameters. */
export class DeepLinkQuery {
  @ApiPropertyOptional({
    description: "Two-letter state: routes state-specific books (BetMGM, Caesars, BetRivers) to that state's site",
    example: 'pa',
  })
  @IsOptional()
  @StringParam()
  @IsString()
  @Matches(/^[A-Za-z]{2}$/, { message: STATE_MESSAGE })
  state?: string;

  @ApiPropertyOptional({
    description: 'For an opportunity id: which of its books to open (default: the first leg / side)',
    example: 'draftkings',
  })
  @IsOptional()
  @StringParam()
  @IsString()
  @MaxLength(64)
  book?: string;

  @ApiPropertyOptional({
    type: Boolean,
    description: "true: an unknown or expired id still redirects to `book`'s home page instead of 404",
  })
  @IsOptional()
  @BooleanParam()
  @IsBoolean({ message: 'fallback must be true or false' })
  fallback?: boolean;
}

/** `POST /deeplinks/batch` body. */
export class DeepLinksBatchBody {
  @ApiProperty({ type: [String], description: 'Odds ids, opportunity ids or futures price ids (1 to 500)', example: ['3f9a1c2b7d4e5f60'] })
  @IsArray({ message: 'ids must be an array of ids' })
  @ArrayMinSize(1, { message: 'ids must hold at least one id' })
  @ArrayMaxSize(500, { message: 'ids may hold at most 500 ids' })
  @IsString({ each: true, message: 'every id must be a string' })
  @MaxLength(200, { each: true, message: 'an id is at most 200 characters' })
  ids: string[];

  @ApiPropertyOptional({ description: 'Two-letter state added to every link (state-specific books)', example: 'pa' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z]{2}$/, { message: STATE_MESSAGE })
  state?: string;
}

/** `POST /deeplinks/batch` answer: each id -> its resolver path, or null (unknown id, or no book with a template). */
export class DeepLinksBatchDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string', nullable: true },
    example: { '3f9a1c2b7d4e5f60': '/api/v1/deeplink/3f9a1c2b7d4e5f60?state=pa', unknown_id: null },
  })
  links: Record<string, string | null>;
}
