// Child process of the stream benchmark: opens SSE streams and notes when each odds:update / arb:detected frame
// is read, on the machine's shared clock (performance.timeOrigin + performance.now(), comparable across the
// processes of one machine). Run with fork(): {open: {port, paths}} → {ready: n}; {report: true} → {frames}.
// The clients run in processes of their own so their reading does not share the server's event loop, and read
// the socket directly (an HTTP/1.1 GET written by hand, the bytes searched for the frames' `event:` lines), so
// the time noted is when the bytes were read, not after a parser's work for 500 other streams.
import { connect } from 'node:net';

interface Open {
  port: number;
  paths: string[];
}

/** Arrival times (ms on the shared clock) per frame kind. */
const frames: Record<'odds' | 'arb', number[]> = { odds: [], arb: [] };
const now = () => performance.timeOrigin + performance.now();
const READY = '\nevent: snapshot:complete\n';
const ODDS = '\nevent: odds:update\n';
const ARB = '\nevent: arb:detected\n';
const CARRY = 40;

/** Where `marker` occurs in `text` ending past `from` (matches within the carried-over tail were counted before). */
function count(text: string, marker: string, from: number): number {
  let n = 0;
  for (let i = text.indexOf(marker); i >= 0; i = text.indexOf(marker, i + 1)) if (i + marker.length > from) n++;
  return n;
}

function open(port: number, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let ready = false;
    let carry = '';
    const socket = connect(port, '127.0.0.1', () => {
      socket.setNoDelay(true);
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`);
    });
    socket.on('data', (chunk: Buffer) => {
      // The time the bytes were read, before anything else.
      const at = now();
      const text = carry + chunk.toString('latin1');
      const from = carry.length;
      carry = text.slice(-CARRY);
      if (!ready) {
        if (count(text, READY, from)) {
          ready = true;
          resolve();
        }
        return;
      }
      for (let n = count(text, ODDS, from); n > 0; n--) frames.odds.push(at);
      for (let n = count(text, ARB, from); n > 0; n--) frames.arb.push(at);
    });
    socket.on('error', reject);
  });
}

process.on('message', (msg: { open?: Open; report?: boolean }) => {
  if (msg.open) {
    const { port, paths } = msg.open;
    void (async () => {
      for (let i = 0; i < paths.length; i += 50) await Promise.all(paths.slice(i, i + 50).map((p) => open(port, p)));
      process.send!({ ready: paths.length });
    })();
  } else if (msg.report) {
    process.send!({ frames }, () => process.exit(0));
  }
});
