// Every test process refuses TCP connections to anything but loopback, so a test that
// forgot to point an SDK at the mock server fails loudly instead of calling the internet.
import net from 'node:net';

// Child processes (our MCP servers) inherit this; their shared HTTP client then refuses every
// host that is not loopback (servers/shared/http-client.ts).
process.env.M3_NETWORK_GUARD = 'loopback';

const allowedHosts = new Set(['127.0.0.1', 'localhost', '::1', '::ffff:127.0.0.1', '']);

function hostOf(args: unknown[]): string | undefined {
  const first = args[0];
  if (Array.isArray(first)) return hostOf(first);
  if (first && typeof first === 'object') {
    const options = first as { host?: string; path?: string };
    if (options.path) return ''; // unix socket
    return options.host ?? 'localhost';
  }
  if (typeof first === 'number') return typeof args[1] === 'string' ? args[1] : 'localhost';
  if (typeof first === 'string') return ''; // unix socket path
  return undefined;
}

// In a worker shared by several files (vitest.config.ts) this runs once per file: patch once.
const guarded = Symbol.for('m3bench.networkGuard');
const socketPrototype = net.Socket.prototype as typeof net.Socket.prototype & { [guarded]?: true };
const originalConnect = socketPrototype.connect;
if (!socketPrototype[guarded])
  socketPrototype.connect = function patchedConnect(this: net.Socket, ...args: unknown[]) {
    const host = hostOf(args);
    if (host !== undefined && !allowedHosts.has(host) && !host.startsWith('127.')) {
      throw new Error(`test network guard: connection to ${host} refused (tests may only reach loopback)`);
    }
    return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect;
socketPrototype[guarded] = true;
