// A lean keep-alive JSON client for the server benches (lighter than fetch,
// so the figures measure the server, not the client).
import http from 'node:http';

export interface JsonClient {
  call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any }>;
  close(): void;
}

export function jsonClient(baseUrl: string, maxSockets = 64): JsonClient {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  return {
    call(method, path, body, extra = {}) {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      return new Promise((resolve, reject) => {
        const req = http.request(
          {
            host: url.hostname,
            port: url.port,
            path,
            method,
            agent,
            headers: payload
              ? { ...extra, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
              : extra,
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              const text = Buffer.concat(chunks).toString('utf8');
              let parsed: unknown = text;
              try {
                parsed = JSON.parse(text);
              } catch {
                /* not JSON */
              }
              resolve({ status: res.statusCode ?? 0, body: parsed });
            });
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        if (payload) req.write(payload);
        req.end();
      });
    },
    close() {
      agent.destroy();
    },
  };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

export const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Runs `worker` on `clients` concurrent loops over `items`, each item taken by one loop at a time. */
export async function pool<T>(items: T[], clients: number, worker: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < items.length) await worker(items[next++]!);
    }),
  );
}
