import { randomBytes, timingSafeEqual } from 'node:crypto';
import { isLoopback } from '../auth/authenticator.js';

/**
 * Requests this process makes to its own HTTP routes on behalf of a caller whose request was counted already
 * (an MCP tool call is one request on the key's budget, counted as the MCP request; the REST route it is
 * dispatched to must not count it again). They carry a per-process random token in one header and come from a
 * loopback address; the throttler skips exactly those. Everything else about the request (the key, the tier
 * feature, the books, the delay, validation) is checked as for any other caller.
 */
export const INTERNAL_DISPATCH_HEADER = 'x-internal-dispatch';
const TOKEN = randomBytes(32).toString('hex');
const TOKEN_BYTES = Buffer.from(TOKEN);

/** The header a dispatch to this process's own routes carries. */
export function internalDispatchHeaders(): Record<string, string> {
  return { [INTERNAL_DISPATCH_HEADER]: TOKEN };
}

/** True for a request this process dispatched to itself: the token matches and the peer is a loopback address. */
export function isInternalDispatch(req: {
  headers: Record<string, string | string[] | undefined>;
  socket?: { remoteAddress?: string };
}): boolean {
  const v = req.headers[INTERNAL_DISPATCH_HEADER];
  if (typeof v !== 'string' || v.length !== TOKEN.length) return false;
  if (!isLoopback(req.socket?.remoteAddress)) return false;
  return timingSafeEqual(Buffer.from(v), TOKEN_BYTES);
}
