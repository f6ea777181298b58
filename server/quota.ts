// Quotas: at most `limit` uses per key (a client address, a mail address) in
// any `windowMs`. Kept in memory: a restart forgives, which is fine for
// holding back a flood; the durable guards (confirmation, expiry) are elsewhere.
export interface QuotaSettings {
  /** Games one client address may create per hour. */
  createsPerClientPerHour: number;
  /** Games one organiser address may create per day. */
  createsPerAddressPerDay: number;
  /** Invitations one address may receive per day (from all games). */
  invitesPerAddressPerDay: number;
}

export const DEFAULT_QUOTAS: QuotaSettings = {
  createsPerClientPerHour: 10,
  createsPerAddressPerDay: 5,
  invitesPerAddressPerDay: 5,
};

/** Reads the quotas from the environment (QUOTA_CREATES_PER_CLIENT_HOUR and friends), defaults for the rest. */
export function quotasFromEnv(env: Record<string, string | undefined>): QuotaSettings {
  const n = (name: string, fallback: number) => {
    const v = env[name];
    return v !== undefined && /^\d+$/.test(v.trim()) ? Number(v) : fallback;
  };
  return {
    createsPerClientPerHour: n('QUOTA_CREATES_PER_CLIENT_HOUR', DEFAULT_QUOTAS.createsPerClientPerHour),
    createsPerAddressPerDay: n('QUOTA_CREATES_PER_ADDRESS_DAY', DEFAULT_QUOTAS.createsPerAddressPerDay),
    invitesPerAddressPerDay: n('QUOTA_INVITES_PER_ADDRESS_DAY', DEFAULT_QUOTAS.invitesPerAddressPerDay),
  };
}

/** A quota as its users see it: this in-memory one, or the PostgreSQL one shared by processes (pg-quota.ts). */
export interface QuotaCounter {
  take(key: string): boolean | Promise<boolean>;
}

export class Quota implements QuotaCounter {
  private uses = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one use of `key`; false (and not counted) when its quota is used up. */
  take(key: string): boolean {
    const t = this.now();
    const recent = (this.uses.get(key) ?? []).filter((at) => at > t - this.windowMs);
    if (recent.length >= this.limit) {
      this.uses.set(key, recent);
      return false;
    }
    recent.push(t);
    this.uses.set(key, recent);
    if (this.uses.size > 10_000) this.forgetOld(t);
    return true;
  }

  private forgetOld(t: number): void {
    for (const [k, v] of this.uses) if (v.every((at) => at <= t - this.windowMs)) this.uses.delete(k);
  }
}
