// Every route that takes a link key, as a list a test can walk: with a
// retired key each must answer 404, and none may write the key to the log.
export interface KeyedRequest {
  method: 'GET' | 'POST';
  path: string;
  /** Sent as a form (pages) or JSON (paths under /api/). */
  body?: Record<string, string | number>;
}

/** Every route a link key opens, whatever its role (seat, invite, admin, spectator). */
export function keyedRoutes(key: string, seq: number): KeyedRequest[] {
  const seat: KeyedRequest[] = [
    { method: 'GET', path: `/play/${key}` },
    { method: 'POST', path: `/play/${key}/move`, body: { seq, n: 0 } },
    { method: 'POST', path: `/play/${key}/undo`, body: { seq } },
    { method: 'GET', path: `/play/${key}/m/0?seq=${seq}` },
    { method: 'GET', path: `/play/${key}/history.json` },
    { method: 'GET', path: `/play/${key}/history.txt` },
    { method: 'GET', path: `/play/${key}/step/1` },
    { method: 'GET', path: `/api/play/${key}` },
    { method: 'POST', path: `/api/play/${key}/move`, body: { seq, n: 0 } },
    { method: 'POST', path: `/api/play/${key}/undo`, body: { seq } },
    { method: 'GET', path: `/api/play/${key}/history` },
    { method: 'GET', path: `/mail/prefs/${key}` },
    { method: 'POST', path: `/mail/prefs/${key}`, body: { mail: 'nothing' } },
    { method: 'GET', path: `/mail/unsubscribe/${key}` },
    { method: 'POST', path: `/mail/unsubscribe/${key}`, body: { 'List-Unsubscribe': 'One-Click' } },
  ];
  const invite: KeyedRequest[] = [
    { method: 'GET', path: `/join/${key}` },
    { method: 'POST', path: `/join/${key}`, body: { name: 'Mallory', email: 'mallory@example.test' } },
    { method: 'GET', path: `/api/join/${key}` },
    { method: 'POST', path: `/api/join/${key}`, body: { name: 'Mallory', email: 'mallory@example.test' } },
  ];
  const admin: KeyedRequest[] = [
    { method: 'GET', path: `/admin/${key}` },
    { method: 'POST', path: `/admin/${key}/reopen`, body: { seat: 0 } },
    {
      method: 'POST',
      path: `/admin/${key}/policy`,
      body: { remindAfterHours: 0, repeatHours: 24, maxReminders: 3, onTimeout: 'notify' },
    },
    { method: 'GET', path: `/api/admin/${key}` },
    { method: 'POST', path: `/api/admin/${key}/reopen`, body: { seat: 0 } },
  ];
  const watch: KeyedRequest[] = [
    { method: 'GET', path: `/watch/${key}` },
    { method: 'GET', path: `/watch/${key}/history.json` },
    { method: 'GET', path: `/watch/${key}/history.txt` },
    { method: 'GET', path: `/watch/${key}/step/1` },
    { method: 'GET', path: `/api/watch/${key}` },
    { method: 'GET', path: `/api/watch/${key}/history` },
  ];
  return [...seat, ...invite, ...admin, ...watch];
}

/** Sends one keyed request as a same-site browser form or a script's JSON would. */
export async function sendKeyed(base: string, r: KeyedRequest): Promise<{ status: number; text: string }> {
  const api = r.path.startsWith('/api/');
  const body =
    r.body === undefined
      ? undefined
      : api
        ? JSON.stringify(r.body)
        : new URLSearchParams(Object.entries(r.body).map(([k, v]) => [k, String(v)] as [string, string])).toString();
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = api ? 'application/json' : 'application/x-www-form-urlencoded';
  if (r.method === 'POST' && !api) {
    headers.origin = base;
    headers['sec-fetch-site'] = 'same-origin';
  }
  const res = await fetch(base + r.path, { method: r.method, headers, body, redirect: 'manual' });
  return { status: res.status, text: await res.text() };
}
