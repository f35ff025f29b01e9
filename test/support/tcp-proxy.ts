import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL or Redis, so a test can cut the connection (every socket dropped, new
 * ones refused) or stall it (nothing forwarded, nothing closed) and restore it, without stopping the shared
 * server other suites use.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly pairs = new Set<Pair>();
  private cutOff = false;
  private stalled = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<this> {
    this.server = createServer((client) => {
      if (this.cutOff) {
        client.destroy();
        return;
      }
      const upstream = connect(this.targetPort, this.targetHost);
      const pair: Pair = { client, upstream, bornStalled: this.stalled };
      this.pairs.add(pair);
      const drop = () => {
        // A stalled connection passes nothing on, not even its end: the other side is left waiting, as behind a
        // host that died silently. One opened during the stall never carried anything and simply goes.
        if (this.stalled && !pair.bornStalled) return;
        this.drop(pair);
      };
      client.on('error', drop);
      upstream.on('error', drop);
      client.on('close', drop);
      upstream.on('close', drop);
      if (!this.stalled) this.flow(pair);
    });
    await new Promise<void>((r) => this.server!.listen(this.port, '127.0.0.1', r));
    this.port = (this.server!.address() as { port: number }).port;
    return this;
  }

  private flow(p: Pair): void {
    p.client.pipe(p.upstream);
    p.upstream.pipe(p.client);
    p.client.resume();
    p.upstream.resume();
  }

  private drop(p: Pair): void {
    p.client.destroy();
    p.upstream.destroy();
    this.pairs.delete(p);
  }

  /** Drops every connection and refuses new ones. */
  cut(): void {
    this.cutOff = true;
    for (const p of [...this.pairs]) this.drop(p);
  }

  restore(): void {
    this.cutOff = false;
  }

  /**
   * Stops forwarding in both directions without closing anything (packets dropped, as when a host dies
   * silently or the network between goes dark): both ends keep their connections open and hear nothing. New
   * connections are accepted and get nothing either.
   */
  stall(): void {
    this.stalled = true;
    for (const p of this.pairs) {
      p.client.unpipe(p.upstream);
      p.upstream.unpipe(p.client);
      p.client.pause();
      p.upstream.pause();
    }
  }

  /** Forwards again (what was held is delivered, ends and closes included). */
  resume(): void {
    this.stalled = false;
    for (const p of [...this.pairs]) {
      p.bornStalled = false;
      if (p.client.destroyed || p.upstream.destroyed) this.drop(p);
      else this.flow(p);
    }
  }

  async stop(): Promise<void> {
    this.stalled = false;
    this.cut();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

interface Pair {
  client: Socket;
  upstream: Socket;
  /** Opened while the proxy stalled. */
  bornStalled: boolean;
}

/** Replaces host and port of a URL with the proxy's. */
export function viaProxy(url: string, proxy: TcpProxy): string {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(proxy.port);
  return u.toString();
}

export async function until(cond: () => Promise<boolean> | boolean, timeoutMs = 15_000, stepMs = 100): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await cond()) return;
    if (Date.now() > end) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
