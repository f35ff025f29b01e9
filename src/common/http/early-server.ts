import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';

/** What Fastify's `serverFactory` option receives. */
export type FastifyServerOptions = {
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
};

export const STARTING_HEALTH_PATHS = new Set(['/api/v1/health', '/api/v1/health/']);
/** The readiness route: 503 `starting` until the application takes the server over. */
export const STARTING_READY_PATHS = new Set(['/api/v1/health/ready', '/api/v1/health/ready/']);

/**
 * The HTTP server, opened before the application is loaded (module loading and the database take a few
 * seconds), so a client connecting early gets an answer instead of a refused connection. Until the application
 * takes the server over, `GET /api/v1/health` answers 200 `degraded` with a `startup` check naming what is being
 * done, and every other request 503 `service_unavailable` with `Retry-After`. The application then runs on this
 * same server (Fastify's `serverFactory`): nothing is proxied, no port changes hands.
 *
 * Imports nothing but Node's own modules, so it listens within milliseconds of the process starting.
 */
export class EarlyServer {
  readonly server: Server;
  /** What the process is doing, for the health answer ("opening the database"). */
  phase = 'loading the application';
  private app: RequestListener | null = null;
  private pendingApp: RequestListener | null = null;

  constructor(
    private readonly version: string,
    private readonly docsUrl: string,
    private readonly now: () => number = Date.now,
  ) {
    this.server = createServer((req, res) => (this.app ? this.app(req, res) : this.answer(req, res)));
  }

  /** Opens the port. */
  listen(port: number, host: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
  }

  /**
   * For Fastify's `serverFactory` option: Fastify gets this (already listening) server. Its handler takes the
   * requests once Fastify is ready and "listens" (Nest's `app.listen()`, after the application's start-up
   * hooks), which here only reports the open port.
   */
  readonly factory = (handler: RequestListener, opts: FastifyServerOptions = {}): Server => {
    this.pendingApp = handler;
    if (opts.keepAliveTimeout !== undefined) this.server.keepAliveTimeout = opts.keepAliveTimeout;
    if (opts.requestTimeout !== undefined) this.server.requestTimeout = opts.requestTimeout;
    if (opts.connectionTimeout) this.server.setTimeout(opts.connectionTimeout);
    if (opts.maxRequestsPerSocket && opts.maxRequestsPerSocket > 0) this.server.maxRequestsPerSocket = opts.maxRequestsPerSocket;
    const server = this.server;
    const takeOver = (): void => {
      this.app = this.pendingApp;
    };
    // Fastify calls listen() once it is ready: the port is open already, so hand over and report "listening".
    server.listen = ((...args: unknown[]) => {
      takeOver();
      const cb = args.find((a): a is () => void => typeof a === 'function');
      process.nextTick(() => {
        server.emit('listening');
        cb?.();
      });
      return server;
    }) as Server['listen'];
    return server;
  };

  /** True once the application answers the requests. */
  get handedOver(): boolean {
    return this.app !== null;
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const id = `req_${randomBytes(6).toString('hex')}`;
    if ((req.method === 'GET' || req.method === 'HEAD') && STARTING_HEALTH_PATHS.has(path)) {
      const waiting = { status: 'degraded', message: 'not checked yet: the service is starting' };
      this.send(
        res,
        200,
        id,
        {
          status: 'degraded',
          version: this.version,
          timestamp: new Date(this.now()).toISOString(),
          checks: {
            startup: { status: 'degraded', message: `starting: ${this.phase}` },
            redis: waiting,
            data: waiting,
            schema: waiting,
            database: waiting,
          },
        },
        req.method === 'HEAD',
      );
      return;
    }
    res.setHeader('Retry-After', '2');
    if ((req.method === 'GET' || req.method === 'HEAD') && STARTING_READY_PATHS.has(path)) {
      const startup = { status: 'degraded', message: `starting: ${this.phase}` };
      this.send(res, 503, id, { status: 'starting', checks: { startup } }, req.method === 'HEAD');
      return;
    }
    this.send(
      res,
      503,
      id,
      {
        error: {
          code: 'service_unavailable',
          message: `The service is starting (${this.phase}); try again in a few seconds. GET /api/v1/health says when it is ready.`,
          docs: `${this.docsUrl}#error-service_unavailable`,
        },
      },
      req.method === 'HEAD',
    );
  }

  private send(res: ServerResponse, status: number, id: string, body: unknown, headOnly: boolean): void {
    const text = JSON.stringify(body);
    // Connection: close: the next request comes on a new connection, which the application may already answer.
    res.writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(text),
      'X-Request-Id': id,
      'Cache-Control': 'no-store',
      Connection: 'close',
    });
    res.end(headOnly ? undefined : text);
  }
}
