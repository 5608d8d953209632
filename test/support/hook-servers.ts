/**
 * Vitest global setup of the unit and slow projects: when the run ends, it ends the hook servers
 * (src/cli/hook-server.ts) that tests started under the temporary folder. A test that runs the
 * built hook with a home of its own starts one there, as a prompt would; it would end by itself once
 * its socket's folder is removed or after 30 idle minutes, but a test run should leave no process
 * behind. Linux only (it reads /proc); elsewhere it does nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The processes running `skilldex hook-server run --socket <file under the temporary folder>`. */
export function testHookServers(): number[] {
  const tmp = path.resolve(tmpdir()) + path.sep;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const pid of pids) {
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const at = argv.indexOf('hook-server');
    if (at === -1 || argv[at + 1] !== 'run') continue;
    const socket = argv[argv.indexOf('--socket') + 1];
    if (socket !== undefined && path.resolve(socket).startsWith(tmp)) out.push(Number(pid));
  }
  return out;
}

export default function setup(): () => void {
  return () => {
    for (const pid of testHookServers()) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // Ended meanwhile.
      }
    }
  };
}
