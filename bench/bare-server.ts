// Child process of the odds benchmark: a bare Fastify route answering the same bytes, precomputed.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const bodies = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Record<string, string>;
const app = Fastify({ logger: false });
for (const [path, body] of Object.entries(bodies)) {
  const buf = Buffer.from(body);
  app.get(path, (_req, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(buf));
}
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(JSON.stringify({ port: (app.server.address() as { port: number }).port }) + '\n');
