import { describe, expect, it } from '@jest/globals';
import { INTERNAL_DISPATCH_HEADER, internalDispatchHeaders, isInternalDispatch } from './internal-dispatch.js';

describe('internal dispatch token', () => {
  const token = internalDispatchHeaders()[INTERNAL_DISPATCH_HEADER]!;

  it('is recognised only with the exact token from a loopback peer', () => {
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(isInternalDispatch({ headers: internalDispatchHeaders(), socket: { remoteAddress: '127.0.0.1' } })).toBe(true);
    expect(isInternalDispatch({ headers: internalDispatchHeaders(), socket: { remoteAddress: '::1' } })).toBe(true);
    expect(isInternalDispatch({ headers: internalDispatchHeaders(), socket: { remoteAddress: '::ffff:127.0.0.1' } })).toBe(true);
  });

  it('is refused from another address, with a wrong or missing token, or sent twice', () => {
    expect(isInternalDispatch({ headers: internalDispatchHeaders(), socket: { remoteAddress: '10.0.0.2' } })).toBe(false);
    expect(isInternalDispatch({ headers: internalDispatchHeaders(), socket: {} })).toBe(false);
    const wrong = token.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    expect(isInternalDispatch({ headers: { [INTERNAL_DISPATCH_HEADER]: wrong }, socket: { remoteAddress: '127.0.0.1' } })).toBe(false);
    expect(isInternalDispatch({ headers: { [INTERNAL_DISPATCH_HEADER]: token.slice(1) }, socket: { remoteAddress: '127.0.0.1' } })).toBe(
      false,
    );
    expect(isInternalDispatch({ headers: {}, socket: { remoteAddress: '127.0.0.1' } })).toBe(false);
    expect(isInternalDispatch({ headers: { [INTERNAL_DISPATCH_HEADER]: [token, token] }, socket: { remoteAddress: '127.0.0.1' } })).toBe(
      false,
    );
  });
});
