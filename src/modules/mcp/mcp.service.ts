import { Injectable } from '@nestjs/common';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import { ListToolsRequestSchema, type CallToolResult, type ReadResourceResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Account } from '../../common/auth/account.js';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import { packageVersion } from '../../config/paths.js';
import type { TierName } from '../../config/tiers.js';
import { errorSummary, summarize } from './mcp-summary.js';
import { MCP_TOOLS, resolveRoute, routeTemplate, toQuery, type McpToolDef } from './mcp-tools.js';
import { RestDispatcher, type RestResponse } from './rest-dispatcher.js';
import { RouteAccess } from './route-access.js';

/** The caller of one MCP request, as the key guard resolved it. */
export interface McpCaller {
  account: Account;
  /** The key the caller sent (any of the three ways); tool calls send it on to the REST routes. */
  apiKey: string;
  requestId: string;
}

/** What a tool needs and whether this caller has it, from the REST route's own access rule. */
export interface ToolAccess {
  served: boolean;
  requiredTier: TierName;
  available: boolean;
  note: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const META = 'odds-service';

/**
 * The tools' input JSON schemas, converted once: the SDK converts every zod schema again on each tools/list
 * (about 40 ms for these 20 tools), and a stateless server gets a fresh SDK server per request.
 */
const inputSchemas = new Map<string, Tool['inputSchema']>();
function inputSchema(tool: McpToolDef): Tool['inputSchema'] {
  let schema = inputSchemas.get(tool.name);
  if (!schema) {
    schema = toJsonSchemaCompat(tool.input, { strictUnions: true, pipeStrategy: 'input' }) as Tool['inputSchema'];
    inputSchemas.set(tool.name, schema);
  }
  return schema;
}

/**
 * Builds the MCP server of one request (stateless: a fresh server per HTTP request, see McpController). Every
 * tool, and the sportsbooks resource, is a GET on one REST route dispatched with the caller's key, so the
 * answer, the refusals and the tier rules are the REST API's own.
 */
@Injectable()
export class McpService {
  private readonly version = packageVersion();

  constructor(
    private readonly dispatcher: RestDispatcher,
    private readonly routes: RouteAccess,
    private readonly policy: AccessPolicy,
  ) {}

  /** The tier a tool needs and whether the caller may call it, from the rule the REST route declares. */
  access(tool: McpToolDef, account: Account): ToolAccess {
    const template = routeTemplate(tool.route);
    const method = tool.method ?? 'GET';
    const rule = this.routes.rule(template, method);
    if (!rule) {
      return {
        served: false,
        requiredTier: 'free',
        available: false,
        note: `Not served by this server (${method} /api/v1${template} is missing): calls return not_found.`,
      };
    }
    if (rule.kind !== 'key' || !rule.feature) return { served: true, requiredTier: 'free', available: true, note: 'Tier: every tier.' };
    const requiredTier = this.policy.requiredTierFor(rule.feature);
    const available = this.policy.hasFeature(account, rule.feature);
    const tierNote = `Tier: ${requiredTier}${requiredTier === 'enterprise' ? '' : ' and up'}.`;
    if (available) return { served: true, requiredTier, available, note: tierNote };
    const why = this.policy.tierHas(account.tier, rule.feature)
      ? 'it is switched off for this account'
      : `this key is on the ${account.tier} tier`;
    return {
      served: true,
      requiredTier,
      available,
      note: `${tierNote} Not available to this key (${why}): calls are refused with tier_restricted.`,
    };
  }

  createServer(caller: McpCaller): McpServer {
    const server = new McpServer(
      { name: 'odds-service', title: 'Odds Service', version: this.version },
      {
        capabilities: { tools: {}, resources: {}, prompts: {} },
        instructions:
          'Sports betting odds from many sportsbooks: events, prices, line shopping, +EV, arbitrage, middles, low-hold markets, closing lines, futures, live game state and betting splits. ' +
          "Every tool returns the JSON of the REST endpoint it names, after a one-paragraph summary. Each tool call counts as one request on the API key's per-minute budget. " +
          "Tools above the key's tier say so in their description and are refused with the tier they need; get_account_info tells the key's tier and limits.",
      },
    );
    const listed = MCP_TOOLS.map((tool) => this.registerTool(server, tool, caller));
    // tools/list as the SDK answers it (same fields), with the converted schemas cached.
    server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
    this.registerResources(server, caller);
    this.registerPrompts(server);
    return server;
  }

  /** Registers one tool (the SDK validates its arguments and calls it) and returns its tools/list entry. */
  private registerTool(server: McpServer, tool: McpToolDef, caller: McpCaller): Tool {
    const access = this.access(tool, caller.account);
    const config = {
      title: tool.title,
      description: `${tool.description} Calls ${tool.method ?? 'GET'} /api/v1${routeTemplate(tool.route)}. ${access.note}`,
      annotations: { title: tool.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      _meta: {
        [`${META}/route`]: `${tool.method ?? 'GET'} /api/v1${routeTemplate(tool.route)}`,
        [`${META}/required_tier`]: access.requiredTier,
        [`${META}/available`]: access.available,
      },
    };
    server.registerTool(tool.name, { ...config, inputSchema: tool.input }, async (args: Record<string, unknown>) =>
      this.callTool(tool, args, caller),
    );
    return { name: tool.name, ...config, inputSchema: inputSchema(tool), execution: { taskSupport: 'forbidden' } };
  }

  /** Dispatches one tool call to its REST route and turns the answer into a tool result. */
  async callTool(tool: McpToolDef, args: Record<string, unknown>, caller: McpCaller): Promise<CallToolResult> {
    const { path, used } = resolveRoute(tool.route, args);
    let res: RestResponse;
    try {
      res =
        tool.method === 'POST'
          ? await this.dispatcher.post(path, args, caller.apiKey, caller.requestId)
          : await this.dispatcher.get(path, toQuery(args, used), caller.apiKey, caller.requestId);
    } catch (err) {
      return { isError: true, content: [{ type: 'text', text: `service_unavailable: ${(err as Error).message}` }] };
    }
    const json = JSON.stringify(res.body);
    if (res.status >= 200 && res.status < 300 && isObject(res.body)) {
      const delay = Number(res.headers['x-data-delay'] ?? 0) || 0;
      return {
        content: [
          { type: 'text', text: summarize(tool, res.body, delay) },
          { type: 'text', text: json },
        ],
        structuredContent: res.body,
      };
    }
    return {
      isError: true,
      content: [
        { type: 'text', text: errorSummary(res.status, res.body) },
        ...(res.body === null ? [] : [{ type: 'text' as const, text: json }]),
      ],
      ...(isObject(res.body) ? { structuredContent: res.body } : {}),
    };
  }

  private registerResources(server: McpServer, caller: McpCaller): void {
    server.registerResource(
      'tiers',
      'odds://tiers',
      {
        title: 'Tiers and tools',
        description: 'What each subscription tier allows (rate, delay, books, features) and which tools this key may call',
        mimeType: 'text/markdown',
      },
      async (uri): Promise<ReadResourceResult> => ({
        contents: [{ uri: uri.href, mimeType: 'text/markdown', text: this.tiersMarkdown(caller.account) }],
      }),
    );
    server.registerResource(
      'sportsbooks',
      'odds://sportsbooks',
      {
        title: 'Sportsbook catalog',
        description:
          'Every sportsbook in the catalog with its regions, sharpness and the tier it requires (GET /api/v1/sportsbooks?catalog=true)',
        mimeType: 'application/json',
      },
      async (uri): Promise<ReadResourceResult> => {
        const res = await this.dispatcher.get(
          '/sportsbooks',
          new URLSearchParams({ catalog: 'true', include_unlisted: 'true' }),
          caller.apiKey,
          caller.requestId,
        );
        return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(res.body) }] };
      },
    );
  }

  /** The tier table (as the API document shows it) and the tools with the tier each needs. */
  tiersMarkdown(account: Account): string {
    const lines = [
      '# Tiers',
      '',
      this.policy.tierTableMarkdown(),
      '',
      `This key is on the **${account.tier}** tier. Each tool call counts as one request on the per-minute budget.`,
      '',
      '| Tool | REST route | Tier | This key |',
      '|---|---|---|---|',
    ];
    for (const tool of MCP_TOOLS) {
      const a = this.access(tool, account);
      const tier = !a.served
        ? 'not served'
        : a.requiredTier === 'free'
          ? 'every tier'
          : `${a.requiredTier}${a.requiredTier === 'enterprise' ? '' : '+'}`;
      lines.push(
        `| ${tool.name} | ${tool.method ?? 'GET'} /api/v1${routeTemplate(tool.route)} | ${tier} | ${a.available ? 'yes' : 'no'} |`,
      );
    }
    return lines.join('\n');
  }

  private registerPrompts(server: McpServer): void {
    server.registerPrompt(
      'find_todays_best_arbitrage',
      {
        title: "Today's best arbitrage",
        description: "Find today's best arbitrage opportunities and explain how to stake them",
        argsSchema: {
          sport: z.string().optional().describe('Sport id to restrict to (e.g. basketball); omitted: every sport'),
          stake: z.string().optional().describe('Total stake to split across the legs (default 100)'),
        },
      },
      ({ sport, stake }) => ({
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text:
                `Find today's best arbitrage opportunities${sport ? ` in ${sport}` : ''}. Call find_arbitrage with date_range "today", group "best", sort "profit"${sport ? `, sport "${sport}"` : ''}. ` +
                `For the five most profitable, give the event, market and line, each leg's sportsbook, selection and American price, the stake on each leg for a total stake of ${stake ?? '100'} (the legs' stake_percent), and the profit. ` +
                'Point out warnings (live games, stale odds, prices off the consensus) and skip any with VERY_STALE_ODDS. If the tool is refused for the tier, say which tier it needs.',
            },
          },
        ],
      }),
    );
    server.registerPrompt(
      'shop_the_line',
      {
        title: 'Shop the line',
        description: 'Find the best available price on one team or game across the books this key may use',
        argsSchema: {
          team: z.string().describe('Team name (e.g. Celtics)'),
          market: z.string().optional().describe('Market type (default moneyline)'),
        },
      },
      ({ team, market }) => ({
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text:
                `Find the best price on ${team} (${market ?? 'moneyline'}). Call get_events with team "${team}" to find the game, then compare_odds with its event id and market "${market ?? 'moneyline'}". ` +
                'Report the best book and price per selection, the worst, and the difference in implied probability; mention when prices are delayed for this tier.',
            },
          },
        ],
      }),
    );
    server.registerPrompt(
      'find_value_bets',
      {
        title: 'Value bets',
        description: 'List +EV bets against the sharp line with a sensible stake',
        argsSchema: {
          min_ev: z.string().optional().describe('Minimum EV in percent (default 2)'),
          league: z.string().optional().describe('League id (e.g. nba); omitted: every league'),
        },
      },
      ({ min_ev, league }) => ({
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text:
                `Call find_ev_opportunities with min_ev ${min_ev ?? '2'}${league ? `, league "${league}"` : ''}, sort "ev". For the ten best, give the bet, book, price, fair price, EV% and a quarter-Kelly stake (kelly_percent is the full Kelly fraction of bankroll, 0 to 1). ` +
                'Mention warnings such as SINGLE_SHARP_REF or stale odds. If the tool is refused for the tier, say which tier it needs.',
            },
          },
        ],
      }),
    );
  }
}
