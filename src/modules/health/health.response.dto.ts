import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';

export class HealthCheckDto {
  @ApiProperty({ enum: ['ok', 'degraded', 'down'] }) status: string;
  @ApiPropertyOptional({ description: 'How long the check took' }) latency_ms?: number;
  @ApiPropertyOptional({ description: 'What the check found, in words', example: 'board updated 1 s ago' }) message?: string;
}

/** The body of /health (health.service.ts `report`), on 200 and on 503 alike. */
export class HealthReportDto {
  @ApiProperty({ enum: ['ok', 'degraded', 'down'], description: 'The worst of the checks' }) status: string;
  @ApiProperty({ example: '1.0.0' }) version: string;
  @ApiProperty({ format: 'date-time' }) timestamp: string;
  @ApiProperty({
    type: 'object',
    description: 'One entry per check, by name: `database` (store connectivity), `data` (freshness), `schema` (migrations), `redis`',
    additionalProperties: { $ref: getSchemaPath(HealthCheckDto) },
    example: { database: { status: 'ok', latency_ms: 1 }, data: { status: 'ok', latency_ms: 0, message: 'board updated 1 s ago' } },
  })
  checks: Record<string, HealthCheckDto>;
}

class ReadinessChecksDto {
  @ApiProperty({ type: HealthCheckDto, description: 'What start-up is doing, or how it ended' }) startup: HealthCheckDto;
}

/** The body of /health/ready, on 200 and on 503 alike. */
export class ReadinessDto {
  @ApiProperty({ enum: ['ready', 'starting'] }) status: 'ready' | 'starting';
  @ApiProperty({ type: ReadinessChecksDto }) checks: ReadinessChecksDto;
}
