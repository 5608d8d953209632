/**
 * Test support: the silent proxy (silent-proxy.mjs) as a child process — a loopback port in front
 * of a database that can stop forwarding without closing anything, and start again.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

// Beside this file in the source tree; from dist-bench/test/support/ (the compiled bench), back
// in the source tree (tsc does not copy .mjs files).
const SCRIPT = [
  new URL('./silent-proxy.mjs', import.meta.url),
  new URL('../../../test/support/silent-proxy.mjs', import.meta.url),
]
  .map((u) => fileURLToPath(u))
  .find((p) => existsSync(p))!;

/** A running silent proxy. */
export interface SilentProxy {
  /** The loopback port clients connect to. */
  readonly port: number;
  /** Stops forwarding: open and new connections stay open, nothing passes. */
  silence(): Promise<void>;
  /** Forwards again (for new connections; the silenced ones are closed). */
  resume(): Promise<void>;
  /** Ends the proxy process. */
  stop(): void;
}

/** Starts a proxy to 127.0.0.1:`upstream`; resolves once it listens. */
export function startSilentProxy(upstream: number): Promise<SilentProxy> {
  const child = spawn(process.execPath, [SCRIPT, String(upstream)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: child.stdout });
  const waiting: ((line: string) => void)[] = [];
  lines.on('line', (l) => waiting.shift()?.(l));
  const next = (): Promise<string> => new Promise((resolve) => waiting.push(resolve));
  const command = async (cmd: string): Promise<void> => {
    const done = next();
    child.stdin.write(`${cmd}\n`);
    await done;
  };
  return next().then((first) => {
    const port = Number(/^listening (\d+)$/.exec(first)?.[1]);
    if (!Number.isInteger(port)) throw new Error(`the proxy said: ${first}`);
    return {
      port,
      silence: () => command('silence'),
      resume: () => command('resume'),
      stop: () => {
        child.stdin.end();
        child.kill();
      },
    };
  });
}
