/**
 * Binding an HTTP server (`mcp --http`, `serve`) to a host and port, with the user's situation as a
 * coded error rather than an internal fault: a busy port is PORT_IN_USE, an address this machine
 * does not have (or a name that does not resolve, or a port it may not bind) is INVALID_ARGUMENT
 * naming `--host` or `--port`. A bracketed IPv6 literal (`[::1]`, as in URLs) is bound as the bare
 * address; both address families are handled. Never retries another port on its own.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SkilldexError } from '../errors.js';

/** The address to hand to `listen`: `[::1]` → `::1`; anything else as given, trimmed. */
export function bindAddress(host: string): string {
  const h = host.trim();
  const m = /^\[([^\]]*)\]$/.exec(h);
  return m ? m[1]! : h;
}

/** `http://address:port` of a listening server, IPv6 addresses bracketed. */
export function baseUrlOf(server: Server): { base: string; port: number } {
  const a = server.address() as AddressInfo;
  const shown = a.family === 'IPv6' || a.address.includes(':') ? `[${a.address}]` : a.address;
  return { base: `http://${shown}:${a.port}`, port: a.port };
}

/**
 * Starts `server` listening on `host:port` (port 0: any free port). PORT_IN_USE when another
 * process holds the port; INVALID_ARGUMENT for an address that cannot be bound here.
 */
export function listen(server: Server, port: number, host: string): Promise<void> {
  const address = bindAddress(host);
  return new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException): void => {
      server.off('listening', onListening);
      reject(bindError(err, port, host));
    };
    const onListening = (): void => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, address);
  });
}

/** A listen failure as the coded error the user can act on. */
export function bindError(err: NodeJS.ErrnoException, port: number, host: string): Error {
  const where = `${host}:${port}`;
  const details = { host, port, errno: err.code ?? null };
  switch (err.code) {
    case 'EADDRINUSE':
      return new SkilldexError(
        'PORT_IN_USE',
        `port ${port} on ${host} is already in use by another process`,
        details,
        { cause: err },
      );
    case 'EACCES':
    case 'EPERM':
      return new SkilldexError(
        'INVALID_ARGUMENT',
        `cannot bind ${where}: permission denied (ports below 1024 need privileges)`,
        { option: '--port', ...details },
        { cause: err },
      );
    case 'EADDRNOTAVAIL':
    case 'EAFNOSUPPORT':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EINVAL':
      return new SkilldexError(
        'INVALID_ARGUMENT',
        `cannot bind ${where}: ${host} is not an address of this machine (${err.code})`,
        { option: '--host', ...details },
        { cause: err },
      );
    default:
      return err;
  }
}
