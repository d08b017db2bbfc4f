// A loopback forwarder that holds every request until the test releases it, then passes it on to
// `target` unchanged (method, path, headers, body) and streams the answer back. The live run of
// browser-view.test.ts talks to the mock LLM through it, so the run stays in flight exactly as long
// as the test needs to look at it (not for a fixed sleep that a loaded machine may outlast).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HeldUpstream {
  /** `target`'s URL with this forwarder's origin (same path). */
  url: string;
  /** Lets every held and later request through. */
  release(): void;
  close(): Promise<void>;
}

export async function startHeldUpstream(target: string): Promise<HeldUpstream> {
  const upstream = new URL(target);
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const server = http.createServer((request, response) => {
    void released.then(() => {
      const forwarded = http.request(
        { host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: request.headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      forwarded.on('error', () => response.destroy());
      request.pipe(forwarded);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.href.replace(/\/$/, target.endsWith('/') ? '/' : ''),
    release,
    close: async () => {
      release();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
