import WebSocket from 'ws';

export interface WsFrame {
  type: string;
  [k: string]: any;
}

/**
 * A WebSocket test client on the `ws` package: records every frame (parsed), its size, and how the socket
 * closed. `next(type)` waits for the next frame of a type; `seen(type)` for one already received or to come.
 * A subclass checks each frame as it arrives (`inspect`).
 */
export class WsClient<F extends WsFrame = WsFrame> {
  readonly frames: F[] = [];
  readonly sizes: number[] = [];
  readonly ws: WebSocket;
  readonly closed: Promise<{ code: number; reason: string }>;
  closeInfo: { code: number; reason: string } | null = null;
  private waiters: Array<{ pred: (f: F) => boolean; resolve: (f: F) => void }> = [];

  constructor(url: string, opts: { protocols?: string[]; headers?: Record<string, string> } = {}) {
    this.ws = opts.protocols || opts.headers ? new WebSocket(url, opts.protocols, { headers: opts.headers }) : new WebSocket(url);
    this.ws.on('error', () => undefined);
    this.ws.on('message', (raw: Buffer) => {
      this.sizes.push(raw.length);
      let f: F;
      try {
        f = JSON.parse(String(raw)) as F;
      } catch {
        f = { type: '(not json)', text: String(raw) } as unknown as F;
      }
      this.inspect(f, this.frames.at(-1));
      this.frames.push(f);
      for (const w of [...this.waiters]) {
        if (w.pred(f)) {
          this.waiters = this.waiters.filter((x) => x !== w);
          w.resolve(f);
        }
      }
    });
    this.closed = new Promise((resolve) =>
      this.ws.on('close', (code: number, reason: Buffer) => {
        this.closeInfo = { code, reason: String(reason) };
        resolve(this.closeInfo);
      }),
    );
  }

  static async connect(url: string): Promise<WsClient> {
    const c = new WsClient(url);
    await c.seen('connected');
    return c;
  }

  /** Called with each frame as it arrives, before it is recorded (`previous`: the last one recorded). */
  protected inspect(_frame: F, _previous: F | undefined): void {}

  opened(): Promise<void> {
    if (this.ws.readyState === WebSocket.OPEN) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('close', () => reject(new Error('closed before opening')));
    });
  }

  /** The next frame matching (not one already received). */
  next(type: string | ((f: F) => boolean), timeoutMs = 10_000): Promise<F> {
    const pred = typeof type === 'string' ? (f: F) => f.type === type : type;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `no ${typeof type === 'string' ? type : 'matching frame'} within ${timeoutMs} ms; saw ${this.frames.map((f) => f.type).join(', ')}; close ${JSON.stringify(this.closeInfo)}`,
            ),
          ),
        timeoutMs,
      );
      this.waiters.push({
        pred,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
      });
    });
  }

  /** The first frame of a type (or matching), received already or to come. */
  async seen(type: string | ((f: F) => boolean), timeoutMs = 10_000): Promise<F> {
    const pred = typeof type === 'string' ? (f: F) => f.type === type : type;
    return this.frames.find(pred) ?? this.next(type, timeoutMs);
  }

  of(type: string): F[] {
    return this.frames.filter((f) => f.type === type);
  }

  send(value: unknown): void {
    this.ws.send(typeof value === 'string' ? value : JSON.stringify(value));
  }

  /** Resolves with the close, or null when the socket is still open after `ms`. */
  async closedWithin(ms: number): Promise<{ code: number; reason: string } | null> {
    return Promise.race([this.closed, new Promise<null>((r) => setTimeout(() => r(null), ms))]);
  }

  close(): void {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.terminate();
  }
}
