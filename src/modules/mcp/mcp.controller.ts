import { RouteConfig } from '@nestjs/platform-fastify';
import { PER_ITEM_TEXT } from '../../common/http/text-params.js';
import { Controller, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { extractKey } from '../../common/auth/authenticator.js';
import { RequiresKey } from '../../common/auth/decorators.js';
import { ApiError } from '../../common/http/api-error.js';
import { McpService } from './mcp.service.js';

/** The request headers the Streamable HTTP transport reads. */
const TRANSPORT_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'];

function jsonRpcError(code: number, message: string) {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}

/**
 * The MCP server (Model Context Protocol, Streamable HTTP transport of the official SDK) at POST /api/v1/mcp.
 *
 * - **Stateless**: every POST gets a fresh server and transport and answers with JSON (no session id, no SSE),
 *   so any instance behind a load balancer can answer any request. GET and DELETE (the session stream and the
 *   session end, which a stateless server has no use for) answer 405, which MCP clients accept.
 * - **Authentication and rate limit** are the API's guards on this route: a key is required (X-API-Key, Bearer
 *   or ?api_key=), and every POST counts as one request on the key's per-minute budget, the same budget its
 *   REST calls spend. So the handshake is 2 requests (initialize, notifications/initialized; 3 with tools/list)
 *   and each tool call is 1. JSON-RPC batches are refused, so one request is always one message.
 * - **Tools** are GETs on the REST routes, dispatched with the caller's key (McpService, RestDispatcher).
 */
@ApiTags('MCP')
@Controller('mcp')
export class McpController {
  constructor(private readonly mcp: McpService) {}

  @Post()
  @RequiresKey()
  // Tool arguments meet the text rule at the route each tool calls (a loopback request): a tool error, not a 400.
  @RouteConfig({ [PER_ITEM_TEXT]: ['params.arguments'] })
  @ApiOperation({
    summary: 'MCP tool server (JSON-RPC 2.0 over Streamable HTTP, stateless)',
    description:
      'For AI agents: initialize, tools/list, tools/call, resources/list|read, prompts/list|get. Send `Accept: application/json, text/event-stream` and `Content-Type: application/json`; one JSON-RPC message per request (batches are refused). Each request counts as one on the key\'s rate limit. See the README, "MCP server".',
  })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['jsonrpc', 'method'],
      properties: {
        jsonrpc: { type: 'string', enum: ['2.0'] },
        id: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        method: { type: 'string', example: 'tools/list' },
        params: { type: 'object' },
      },
    },
  })
  @ApiOkResponse({
    description: 'The JSON-RPC response (202 with no body for a notification)',
    schema: { type: 'object', properties: { jsonrpc: { type: 'string' }, id: {}, result: { type: 'object' }, error: { type: 'object' } } },
  })
  async post(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const body = req.body;
    if (Array.isArray(body)) {
      await reply
        .code(400)
        .header('Content-Type', 'application/json')
        .send(
          jsonRpcError(
            -32600,
            'JSON-RPC batches are not supported: send one message per request (each request counts once on the rate limit)',
          ),
        );
      return;
    }
    const apiKey = extractKey(req);
    if (!req.account || !apiKey) throw new ApiError('unauthorized', 'Missing API key');
    const server = this.mcp.createServer({ account: req.account, apiKey, requestId: req.id });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      const headers = new Headers();
      for (const name of TRANSPORT_HEADERS) {
        const v = req.headers[name];
        if (typeof v === 'string') headers.set(name, v);
      }
      const res = await transport.handleRequest(new Request(`http://localhost${req.url}`, { method: 'POST', headers }), {
        parsedBody: body,
      });
      const text = await res.text();
      reply.code(res.status);
      res.headers.forEach((value, name) => {
        if (name !== 'content-length') void reply.header(name, value);
      });
      await reply.send(text || undefined);
    } finally {
      await server.close();
    }
  }
}
