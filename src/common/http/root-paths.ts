/** Routes of the API answered at the root too (`POST /mcp`, as the spec names the MCP server), with their query. */
const ROOT_PATHS = ['mcp'];

/**
 * Fastify's `rewriteUrl`: a request for one of ROOT_PATHS at the root is routed to the same route under the API
 * prefix, so both paths are one route (one handler, the same authentication, rate limit and usage counting).
 */
export function rootPathRewrite(apiPrefix: string): (req: { url?: string }) => string {
  const roots = new Set(ROOT_PATHS.flatMap((p) => [`/${p}`, `/${p}/`]));
  return (req) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    return roots.has(path) ? `/${apiPrefix}${url}` : url;
  };
}
