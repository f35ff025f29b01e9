import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The local operator channel. A running server writes DATA_DIR/server.json (mode 0600) with its pid, port and
 * a random admin token; the CLI uses it to reach the server when the embedded store is held open by it
 * (an embedded PostgreSQL can only be opened by one process). ADMIN_TOKEN fixes the token instead.
 */
export interface ServerInfo {
  pid: number;
  port: number;
  host: string;
  admin_token: string;
  started_at: string;
}

export class AdminToken {
  readonly value: string;
  constructor(fixed?: string) {
    this.value = fixed && fixed.length >= 16 ? fixed : randomBytes(24).toString('hex');
  }

  matches(candidate: string | undefined): boolean {
    if (!candidate) return false;
    const a = Buffer.from(candidate);
    const b = Buffer.from(this.value);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}

export function serverInfoPath(dataDir: string): string {
  return join(dataDir, 'server.json');
}

export function writeServerInfo(dataDir: string, info: ServerInfo): void {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(serverInfoPath(dataDir), JSON.stringify(info, null, 2), { mode: 0o600 });
}

export function removeServerInfo(dataDir: string, pid: number): void {
  const file = serverInfoPath(dataDir);
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as ServerInfo;
    if (info.pid === pid) rmSync(file, { force: true });
  } catch {
    /* nothing to remove */
  }
}

/** The running server that owns this DATA_DIR, if any (its process is alive). */
export function readLiveServer(dataDir: string): ServerInfo | null {
  const file = serverInfoPath(dataDir);
  if (!existsSync(file)) return null;
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as ServerInfo;
    process.kill(info.pid, 0);
    return info;
  } catch {
    return null;
  }
}
