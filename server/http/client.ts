// Who is asking: the client's real address, and whether a change was asked for
// by one of this server's own pages.
//
// Addresses. Behind a reverse proxy every request comes from the proxy's
// address; the client's is in X-Forwarded-For. That header is believed only
// from the proxies TRUST_PROXY names (express's 'trust proxy': "loopback", a
// hop count, or addresses/CIDRs, comma-separated); unset, it is never
// believed, and `req.ip` is the socket's address. Rate limits count by
// `req.ip`, and the outbox opens only to a loopback `req.ip`.
//
// Cross-site requests. Any web page can make its visitors' browsers post a
// form here. Browsers say where a request came from (Sec-Fetch-Site, and
// Origin on every cross-site POST); a state-changing request that a browser
// marks as coming from another site is refused with a page saying why.
// Requests without either header come from scripts, mail servers (RFC 8058
// one-click unsubscribe) or old browsers, which a hostile page cannot drive.
import type { NextFunction, Request, Response } from 'express';
import type { Express } from 'express';

/** express's 'trust proxy' value for a TRUST_PROXY setting: false (unset), true, a hop count or a list. */
export function trustProxySetting(raw: string | undefined): boolean | number | string {
  const v = (raw ?? '').trim();
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/**
 * Whether the client itself (not a proxy in front) is on this machine. When no
 * proxy is trusted, a request that carries forwarding headers came through a
 * proxy nobody declared: its real client is unknown, so the answer is no.
 */
export function clientIsLoopback(req: Request): boolean {
  const trusted = (req.app as Express).get('trust proxy');
  if (!trusted && (req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined)) return false;
  return isLoopback(req.ip);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Why a state-changing request is refused as cross-site, or null if it may go on. */
export function crossSiteProblem(req: Request, ownOrigin: string): string | null {
  if (SAFE_METHODS.has(req.method)) return null;
  // A browser that sends Sec-Fetch-Site is believed; Origin is the fallback for those that do not.
  const site = req.get('sec-fetch-site');
  if (site !== undefined)
    return site === 'same-origin' || site === 'none' ? null : `another web site (the browser says: ${site})`;
  const origin = req.get('origin');
  if (origin === undefined) return null;
  if (origin === ownOrigin || origin === `${req.protocol}://${req.get('host')}`) return null;
  return origin === 'null' ? 'a page with no origin (a sandboxed frame or a file)' : origin;
}

/** Express middleware: refuses cross-site state-changing requests through `refuse` (403). */
export function sameSiteOnly(baseUrl: string, refuse: (req: Request, res: Response, from: string) => void) {
  const ownOrigin = new URL(baseUrl).origin;
  return (req: Request, res: Response, next: NextFunction) => {
    const from = crossSiteProblem(req, ownOrigin);
    if (from === null) return next();
    refuse(req, res, from);
  };
}
