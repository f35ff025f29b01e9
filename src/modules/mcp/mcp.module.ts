import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { McpController } from './mcp.controller.js';
import { McpService } from './mcp.service.js';
import { RestDispatcher } from './rest-dispatcher.js';
import { RouteAccess } from './route-access.js';

/**
 * The MCP tool server at POST /api/v1/mcp. It depends on no other domain module: its tools reach the service
 * through the REST routes (RestDispatcher) and read the routes' access rules through Nest's discovery
 * (RouteAccess); the access policy comes from the global CommonModule.
 */
@Module({
  imports: [DiscoveryModule],
  controllers: [McpController],
  providers: [McpService, RestDispatcher, RouteAccess],
})
export class McpModule {}
