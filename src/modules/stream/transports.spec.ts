import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import { WebSocket, WebSocketServer } from 'ws';
import { SOCKET_HIGH_WATER, type Frame } from './stream-client.js';
import { SseTransport, sseText, WS_CLOSE, WsTransport } from './transports.js';

const GRACE = 300;
const servers: Array<Server | WebSocketServer> = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(() => r(undefined)));
});

/** An HTTP server whose one response is handed to the test, and a client request to it. */
async function sse(): Promise<{ res: ServerResponse; client: IncomingMessage; serverSocketClosed: Promise<void> }> {
  let resolveRes!: (r: ServerResponse) => void;
  const got = new Promise<ServerResponse>((r) => (resolveRes = r));
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', Connection: 'keep-alive' });
    res.flushHeaders();
    resolveRes(res);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  const client = await new Promise<IncomingMessage>((resolve) => request({ port, host: '127.0.0.1', path: '/' }, resolve).end());
  const res = await got;
  const serverSocketClosed = new Promise<void>((r) => res.socket!.once('close', () => r()));
  return { res, client, serverSocketClosed };
}

/** Counts the writes a socket hands to the kernel: one system call per _write or _writev. */
function countWrites(socket: Socket): { n: number } {
  const count = { n: 0 };
  const methods = socket as unknown as Record<'_write' | '_writev', (...a: unknown[]) => void>;
  for (const m of ['_write', '_writev'] as const) {
    const own = methods[m].bind(socket);
    methods[m] = (...a: unknown[]) => (count.n++, own(...a));
  }
  return count;
}

describe('SseTransport', () => {
  it('a reading client gets the error event, then the connection is closed', async () => {
    const { res, client, serverSocketClosed } = await sse();
    const t = new SseTransport(res, GRACE);
    let gone = false;
    t.onGone(() => (gone = true));
    let body = '';
    client.setEncoding('utf8');
    client.on('data', (d: string) => (body += d));
    const clientClosed = new Promise<void>((r) => client.socket.once('close', () => r()));
    t.write({ id: '1-0', event: 'odds:update', data: '{"a":1}' });
    t.close({ code: 'unauthorized', message: 'The API key was revoked' });
    await clientClosed;
    await serverSocketClosed;
    expect(body).toBe(
      'id: 1-0\nevent: odds:update\ndata: {"a":1}\n\nevent: error\ndata: {"code":"unauthorized","message":"The API key was revoked"}\n\n',
    );
    expect(gone).toBe(true);
    expect(t.write({ id: '1-1', event: 'x', data: '{}' })).toBe(false);
  });

  it('a frame written to several streams is encoded once, and each reads it whole', async () => {
    const one = await sse();
    const two = await sse();
    const frame: Frame = { id: '7-0', event: 'odds:update', data: '{"book":"café"}' };
    const reads = [one, two].map(({ client }) => {
      let body = '';
      client.setEncoding('utf8');
      client.on('data', (d: string) => (body += d));
      return new Promise<string>((r) => client.on('end', () => r(body)));
    });
    const written: unknown[] = [];
    for (const { res } of [one, two]) {
      const socket = res.socket!;
      const write = socket.write.bind(socket) as (chunk: unknown) => boolean;
      socket.write = ((chunk: unknown, ...rest: unknown[]) => (
        written.push(chunk),
        (write as (...a: unknown[]) => boolean)(chunk, ...rest)
      )) as typeof socket.write;
      const t = new SseTransport(res, GRACE);
      t.write(frame);
      t.close();
    }
    const text = 'id: 7-0\nevent: odds:update\ndata: {"book":"café"}\n\n';
    expect(await Promise.all(reads)).toEqual([text, text]);
    // The same bytes (one Buffer) written to both sockets.
    const chunks = written.filter((c) => Buffer.isBuffer(c) && c.includes('odds:update'));
    expect(chunks).toHaveLength(2);
    expect(chunks[0]).toBe(chunks[1]);
    expect(chunks[0]).toBe(frame.wire?.sse);
  });

  it('frames written in a batch leave in one system call, in order; asking for the buffer past the high-water mark hands it over', async () => {
    const { res, client } = await sse();
    const t = new SseTransport(res, GRACE);
    let body = '';
    client.setEncoding('utf8');
    client.on('data', (d: string) => (body += d));
    const writes = countWrites(res.socket!);
    const frames: Frame[] = [0, 1, 2].map((k) => ({ id: `5-${k}`, event: k ? 'arb:detected' : 'odds:update', data: `{"k":${k}}` }));
    t.batch(() => frames.forEach((f) => t.write(f)));
    expect(writes.n).toBe(1);
    // One frame past the high-water mark: when the stream asks how much is buffered, it goes to the kernel first.
    const big: Frame = { id: '6-0', event: 'odds:update', data: JSON.stringify('x'.repeat(SOCKET_HIGH_WATER)) };
    t.batch(() => {
      t.write(big);
      t.buffered();
      t.write({ id: '6-1', event: 'arb:detected', data: '{}' });
    });
    expect(writes.n).toBe(3);
    const text = [...frames, big, { id: '6-1', event: 'arb:detected', data: '{}' }].map(sseText).join('');
    const deadline = Date.now() + 5000;
    while (!body.endsWith(text) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(body).toBe(text);
    t.close();
  });

  it('a stalled reader: the socket is destroyed after the grace period and what it held is freed', async () => {
    const { res, client, serverSocketClosed } = await sse();
    client.pause();
    const t = new SseTransport(res, GRACE);
    let goneAt = 0;
    t.onGone(() => (goneAt = Date.now()));
    // Fill the kernel buffers and then node's: 64 MB the client never reads.
    const chunk = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 64 && t.buffered() < 8 * 1024 * 1024; i++) t.write({ id: `1-${i}`, event: 'odds:update', data: chunk });
    expect(t.buffered()).toBeGreaterThan(1024 * 1024);
    const closedAt = Date.now();
    t.close({ code: 'backpressure', message: 'too slow' });
    expect(goneAt).toBe(0); // still held: not counted as gone
    await serverSocketClosed;
    expect(goneAt).toBeGreaterThanOrEqual(closedAt + GRACE - 20);
    expect(res.socket?.destroyed ?? true).toBe(true);
    expect(t.buffered()).toBe(0);
  });

  it('a client that went away is gone, and closing afterwards is harmless', async () => {
    const { res, client, serverSocketClosed } = await sse();
    const t = new SseTransport(res, GRACE);
    let gone = 0;
    t.onGone(() => gone++);
    client.destroy();
    await serverSocketClosed;
    t.close({ code: 'backpressure', message: 'late' });
    expect(gone).toBe(1);
  });
});

describe('WsTransport', () => {
  async function pair(): Promise<{ server: WebSocket; client: WebSocket }> {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    servers.push(wss);
    await new Promise<void>((r) => wss.once('listening', () => r()));
    const { port } = wss.address() as AddressInfo;
    const serverSide = new Promise<WebSocket>((r) => wss.once('connection', r));
    const client = new WebSocket(`ws://127.0.0.1:${port}`);
    await new Promise<void>((r) => client.once('open', () => r()));
    return { server: await serverSide, client };
  }

  it('closes with the error frame and the code of the reason (unauthorized: 4001)', async () => {
    const { server, client } = await pair();
    const t = new WsTransport(server, () => '2026-11-22T12:00:00.000Z', GRACE);
    const frames: unknown[] = [];
    client.on('message', (d) => frames.push(JSON.parse(String(d))));
    const closed = new Promise<[number, string]>((r) => client.once('close', (code, reason) => r([code, String(reason)])));
    t.close({ code: 'unauthorized', message: 'The API key was revoked; the stream is closed' });
    expect(await closed).toEqual([4001, 'unauthorized']);
    const message = 'The API key was revoked; the stream is closed';
    expect(frames).toEqual([
      { type: 'error', timestamp: '2026-11-22T12:00:00.000Z', code: 'unauthorized', message, data: { code: 'unauthorized', message } },
    ]);
    expect(WS_CLOSE.rate_limited).toBe(4029);
  });

  it('frames written in a batch are one WebSocket message each, and leave in one system call', async () => {
    const { server, client } = await pair();
    const t = new WsTransport(server, () => 'now', GRACE);
    const got: unknown[] = [];
    client.on('message', (d) => got.push(JSON.parse(String(d))));
    const writes = countWrites((server as unknown as { _socket: Socket })._socket);
    t.batch(() => {
      for (let k = 0; k < 3; k++) t.write({ id: `5-${k}`, event: 'odds:update', data: `{"k":${k}}` });
    });
    expect(writes.n).toBe(1);
    const deadline = Date.now() + 5000;
    while (got.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(got).toEqual([0, 1, 2].map((k) => ({ type: 'odds:update', seq: `5-${k}`, timestamp: 'now', data: { k } })));
    client.terminate();
  });

  it('a client that never completes the closing handshake is terminated after the grace period', async () => {
    const { server, client } = await pair();
    // The client stops reading: its socket is paused, so it never answers the close frame.
    (client as unknown as { _socket: import('node:net').Socket })._socket.pause();
    const t = new WsTransport(server, () => 'now', GRACE);
    let goneAt = 0;
    t.onGone(() => (goneAt = Date.now()));
    for (let i = 0; i < 32; i++) t.write({ id: `1-${i}`, event: 'odds:update', data: JSON.stringify('x'.repeat(1024 * 1024)) });
    const closedAt = Date.now();
    t.close({ code: 'backpressure', message: 'too slow' });
    await new Promise((r) => setTimeout(r, GRACE + 500));
    expect(goneAt).toBeGreaterThanOrEqual(closedAt + GRACE - 20);
    expect(server.readyState).toBe(WebSocket.CLOSED);
    client.terminate();
  });
});
