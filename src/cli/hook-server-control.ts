/**
 * Talking to the user's hook servers from outside (`skilldex hook-server status|stop|start`, doctor,
 * `init --undo`): the sockets in their folder, and the `ping` and `stop` requests of the protocol
 * the server (hook-server.ts) answers.
 */
import { readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { HOOK_SERVER_PROTOCOL } from '../hook/index.js';

/** What a running server reports to `ping` (skilldex hook-server status). */
export interface HookServerInfo {
  readonly pid: number;
  readonly build: string | undefined;
  readonly socket: string;
  readonly started_at: string;
  /** Hook runs answered so far. */
  readonly served: number;
  readonly idle_ms: number;
}

/** Whether a server answers `ping` on `socket` (within `ms`); its info when it does. */
export function pingHookServer(socket: string, ms = 1000): Promise<HookServerInfo | undefined> {
  return sendOp(socket, 'ping', ms);
}

/** Asks the server on `socket` to end; its info when it answered. */
export function stopHookServer(socket: string, ms = 1000): Promise<HookServerInfo | undefined> {
  return sendOp(socket, 'stop', ms);
}

/** The sockets in a user's hook server folder `dir`, live or left behind, sorted; none when no folder. */
export function serverSockets(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => n.endsWith('.sock'))
      .sort()
      .map((n) => path.join(dir, n));
  } catch {
    return [];
  }
}

/**
 * Ends every hook server of a user (`dir`: their hook server folder), whatever its build: what each
 * reported as it ended. `hook-server stop` and `init --undo` of every client run this.
 */
export async function stopAllHookServers(dir: string): Promise<HookServerInfo[]> {
  const stopped: HookServerInfo[] = [];
  for (const socket of serverSockets(dir)) {
    const info = await stopHookServer(socket);
    if (info) stopped.push(info);
  }
  return stopped;
}

function sendOp(
  socket: string,
  op: 'ping' | 'stop',
  ms: number,
): Promise<HookServerInfo | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const conn = net.createConnection(socket);
    const timer = setTimeout(() => conn.destroy(), ms);
    conn.on('connect', () => conn.end(JSON.stringify({ v: HOOK_SERVER_PROTOCOL, op }) + '\n'));
    conn.on('data', (c: Buffer) => chunks.push(c));
    conn.on('error', () => undefined);
    conn.on('close', () => {
      clearTimeout(timer);
      try {
        const v = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { info?: HookServerInfo };
        resolve(typeof v.info?.pid === 'number' ? v.info : undefined);
      } catch {
        resolve(undefined);
      }
    });
  });
}
