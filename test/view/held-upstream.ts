// A loopback forwarder that holds every POST (a model's generation) until the test releases it,
// and passes every request on to `target` unchanged (method, path, headers, body), streaming the
// answer back. GETs pass at once: `m3 run` looks the model up before it starts (src/llm/preflight.ts),
// and a held look-up would only time out and delay the run. The live run of
// browser-view.test.ts talks to the mock LLM through it, so the run stays in flight exactly as long
// as the test needs to look at it (not for a fixed sleep that a loaded machine may outlast).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HeldUpstream {
  /** `target`'s URL with this forwarder's origin (same path). */
  url: string;
  /** Lets every held and later POST through. */
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
    void (request.method === 'POST' ? released : Promise.resolve()).then(() => {
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
