import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';
import type { TsSseEncoder } from '../../common/client-profiles/sse-ts.js';
import { CLOSE_GRACE_MS, SOCKET_HIGH_WATER, type CloseReason, type Frame, type Transport } from './stream-client.js';
import { dict } from '../../domain/dict.js';

/** A frame as Server-Sent Events text. */
export function sseText(f: Frame): string {
  return `id: ${f.id}\nevent: ${f.event}\ndata: ${f.data}\n\n`;
}

/**
 * A transport's batch (`Transport.batch`): its socket corked while the frames are written, so that uncorking once
 * hands them all to the kernel in one writev. Nested batches, and a socket that is missing or destroyed, just run.
 */
class CorkedBatch {
  /** The socket corked by the batch under way, or null. */
  socket: Socket | null = null;

  run(socket: Socket | null | undefined, fn: () => void): void {
    if (this.socket || !socket || socket.destroyed) return fn();
    socket.cork();
    this.socket = socket;
    try {
      fn();
    } finally {
      this.socket = null;
      socket.uncork();
    }
  }

  /**
   * In a batch the corked socket holds what the kernel would have taken already: past the high-water mark it is
   * handed over now (and corked again, the batch goes on), so a stream is held to the socket's real back-pressure,
   * as it is without a batch.
   */
  spill(buffered: number): void {
    const socket = this.socket;
    if (!socket || buffered <= SOCKET_HIGH_WATER || !socket.writableCorked) return;
    socket.uncork();
    socket.cork();
  }
}

/** Runs listeners once, when a connection is gone. */
class Gone {
  done = false;
  private readonly fns: Array<() => void> = [];
  on(fn: () => void): void {
    if (this.done) fn();
    else this.fns.push(fn);
  }
  fire(): void {
    if (this.done) return;
    this.done = true;
    for (const fn of this.fns.splice(0)) fn();
  }
}

/**
 * An SSE response, in the spec's named events or, given an encoder, in another client profile's form (the
 * TypeScript client's: see TsSseEncoder). Closing it writes the `error` event, ends the response and then ends the connection too:
 * at once when the response has been handed to the kernel, or by destroying the socket when the client has
 * not taken it within CLOSE_GRACE_MS (a stalled reader), which frees everything queued for it.
 */
export class SseTransport implements Transport {
  private readonly gone = new Gone();
  /** Inside batch(): the socket stays corked until the batch ends. */
  private readonly corked = new CorkedBatch();

  constructor(
    private readonly raw: ServerResponse,
    private readonly graceMs = CLOSE_GRACE_MS,
    private readonly profile: TsSseEncoder | null = null,
  ) {
    // Gone when the connection is closed (by the client, or by us below), not merely when the response ended.
    const socket = raw.socket;
    if (socket) socket.once('close', () => this.gone.fire());
    else raw.once('close', () => this.gone.fire());
    // Small frames leave at once (Node's HTTP server sets this by default; a stream must not depend on it).
    socket?.setNoDelay(true);
  }

  write(f: Frame): boolean {
    const raw = this.raw;
    if (raw.writableEnded || raw.destroyed) return false;
    // The bytes are encoded once per Frame object, shared by every stream of a view (see StreamHub.broadcast).
    const wire = (f.wire ??= {});
    let bytes: Buffer | string;
    if (this.profile) {
      bytes = this.profile.encode(f, wire);
      if (!bytes) return raw.writableLength <= SOCKET_HIGH_WATER;
    } else bytes = wire.sse ??= Buffer.from(sseText(f), 'utf8');
    const ok = raw.write(bytes);
    // ServerResponse.write corks the socket until the next tick: after the whole fan-out (and the detection that
    // follows it). Uncorked now, the frame reaches the kernel at once (in a batch, when the batch ends).
    const socket = raw.socket;
    if (!this.corked.socket && socket && socket.writableCorked) socket.uncork();
    return ok;
  }

  batch(fn: () => void): void {
    // Corked by us, the response's writes add no cork of their own (each frame's bytes are still the Buffer shared
    // by the streams of its view).
    this.corked.run(this.raw.socket, fn);
  }

  buffered(): number {
    if (this.raw.destroyed) return 0;
    this.corked.spill(this.raw.writableLength);
    return this.raw.writableLength;
  }

  onDrain(fn: () => void): void {
    this.raw.on('drain', fn);
  }

  onGone(fn: () => void): void {
    this.gone.on(fn);
  }

  close(reason?: CloseReason): void {
    if (this.gone.done || this.raw.writableEnded) return;
    if (reason) this.raw.write(`event: error\ndata: ${JSON.stringify(reason)}\n\n`);
    // The stream ended on the server's side: the connection is not kept for another request. Once the last
    // bytes are with the kernel the socket is closed (the kernel still delivers them); a client that has not
    // taken them within the grace period is not reading, and its socket is destroyed with what it holds.
    const socket = this.raw.socket;
    this.raw.once('finish', () => socket?.destroySoon());
    this.raw.end();
    // A socket's grace period bounds real I/O: Node's timer, not the injected clock (see Clock).
    const timer = setTimeout(() => {
      this.raw.destroy();
      socket?.destroy();
    }, this.graceMs);
    timer.unref();
    this.onGone(() => clearTimeout(timer));
  }
}

/** WebSocket close codes: auth, no streaming, limits (the 4xxx range is the application's); 1011 for a failure of ours. */
export const WS_CLOSE: Record<string, number> = dict({
  unauthorized: 4001,
  tier_restricted: 4003,
  feature_disabled: 4003,
  too_many_streams: 4029,
  rate_limited: 4029,
  invalid_request: 4000,
  backpressure: 1013,
  service_unavailable: 1001,
  internal_error: 1011,
});

/** An `error` frame: the code and message at the top level and under `data` (clients read either). */
export function wsErrorFrame(timestamp: string, code: string, message: string, seq?: string): string {
  return JSON.stringify({ type: 'error', ...(seq ? { seq } : {}), timestamp, code, message, data: { code, message } });
}

/**
 * A WebSocket. Closing it sends the `error` frame and a close frame with the code of the reason; a client
 * that has not completed the closing handshake within CLOSE_GRACE_MS is terminated (its socket destroyed).
 */
export class WsTransport implements Transport {
  private readonly gone = new Gone();
  /** Inside batch(): the socket, corked until the batch ends. */
  private readonly corked = new CorkedBatch();
  private drainTimer: NodeJS.Timeout | null = null;
  private graceTimer: NodeJS.Timeout | null = null;
  private closing = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly timestamp: () => string,
    private readonly graceMs = CLOSE_GRACE_MS,
  ) {
    ws.once('close', () => {
      if (this.drainTimer) clearInterval(this.drainTimer);
      if (this.graceTimer) clearTimeout(this.graceTimer);
      this.gone.fire();
    });
  }

  write(f: Frame): boolean {
    if (this.ws.readyState !== this.ws.OPEN || this.closing) return false;
    // Encoded once per Frame object (shared by the streams of one view): the timestamp is when it was encoded.
    const wire = (f.wire ??= {});
    wire.ws ??= Buffer.from(
      `{"type":${JSON.stringify(f.event)},"seq":${JSON.stringify(f.id)},"timestamp":${JSON.stringify(this.timestamp())},"data":${f.data}}`,
      'utf8',
    );
    this.ws.send(wire.ws, { binary: false });
    return this.ws.bufferedAmount <= SOCKET_HIGH_WATER;
  }

  batch(fn: () => void): void {
    // ws sends each message with its own socket.write (corked around header and payload); corked around them all,
    // the messages (still one WebSocket message per frame) reach the kernel in one writev. ws keeps its socket in
    // `_socket` (not in its types); without one, each message goes out by itself.
    if (this.ws.readyState !== this.ws.OPEN) return fn();
    this.corked.run((this.ws as unknown as { _socket?: Socket })._socket, fn);
  }

  /** Sends a frame that is not part of the sequence (pong, subscribed, error replies). */
  writeRaw(text: string): void {
    if (this.ws.readyState === this.ws.OPEN && !this.closing) this.ws.send(text);
  }

  buffered(): number {
    this.corked.spill(this.ws.bufferedAmount);
    return this.ws.bufferedAmount;
  }

  onDrain(fn: () => void): void {
    if (this.gone.done) return;
    // Polling the socket's send buffer (I/O plumbing, real time).
    this.drainTimer = setInterval(() => {
      if (this.ws.bufferedAmount <= SOCKET_HIGH_WATER) fn();
    }, 50);
    this.drainTimer.unref();
  }

  onGone(fn: () => void): void {
    this.gone.on(fn);
  }

  close(reason?: CloseReason): void {
    if (this.gone.done || this.closing) return;
    this.closing = true;
    if (this.drainTimer) clearInterval(this.drainTimer);
    if (this.ws.readyState === this.ws.OPEN) {
      if (reason) this.ws.send(wsErrorFrame(this.timestamp(), reason.code, reason.message));
      this.ws.close(reason ? (WS_CLOSE[reason.code] ?? 1011) : 1000, reason?.code);
    }
    this.graceTimer = setTimeout(() => this.ws.terminate(), this.graceMs);
    this.graceTimer.unref();
  }
}
