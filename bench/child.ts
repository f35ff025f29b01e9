import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** Starts `node nodeArgs script args` and resolves with the first JSON line it prints on stdout. */
export function startChild<T>(
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
  timeoutMs = 180_000,
): Promise<{ child: ChildProcess; info: T }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const rl = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error(`${script} did not report within ${timeoutMs / 1000} s`)), timeoutMs);
    // The first JSON line that is not a log record is the child's report.
    const onLine = (line: string) => {
      if (!line.startsWith('{')) return;
      let v: Record<string, unknown>;
      try {
        v = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return;
      }
      if ('level' in v) return;
      clearTimeout(timer);
      rl.off('line', onLine);
      resolve({ child, info: v as T });
    };
    rl.on('line', onLine);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}
