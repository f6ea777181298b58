// The public view of 1830 (everything in 1830 is open information except nothing; all seats see the same).
import type { Seat, View } from '../types.ts';
import { CORPS, DATA, PRIVATES, TRAINS } from './data.ts';
import { tokenHexes as boardTokens, type Board } from './track/index.ts';
import { key, parPrice, sharePrice } from './market.ts';
import { certCount, certLimit, playerValue } from './shares.ts';
import type { Game1830State } from './state.ts';
import { mustBuyTrain, operatingOptions } from './operating/index.ts';

function tokenHexes(state: Game1830State, corp: string): string[] {
  return state.map ? boardTokens(state.map as Board, corp) : [];
}

function roundName(state: Game1830State): string {
  const r = state.round;
  if (r.kind === 'auction') return 'Private auction';
  if (r.kind === 'stock') return `Stock round ${state.turn}`;
  return `Operating round ${state.turn}.${r.num} of ${state.orCount}`;
}

/** What is happening, in a few words; who acts is shown by name beside it (view.toAct). */
function doing(state: Game1830State): string {
  const r = state.round;
  if (r.kind === 'auction') {
    if (r.pendingPar.length) return `the par value of ${r.pendingPar[0]!.corp} is set`;
    if (r.auctioning) return `bidding war for ${r.auctioning}: the lowest bidder raises or passes`;
    return 'buy the cheapest private, bid on another, or pass';
  }
  if (r.kind === 'stock') return 'buy, sell or pass';
  if (!r.current) return 'operating';
  const corp = state.corps[r.current]!;
  const crowd = mustDiscard(state);
  if (crowd) return `${crowd} must discard a train`;
  const b = state.map as Board | null;
  if (b?.pending.length) return `${b.pending[0]!.corp} puts its station back in ${b.pending[0]!.hex}`;
  const steps: Record<string, string> = {
    home: 'places its home station',
    track: 'may lay a tile',
    token: 'may place a station',
    route: 'runs its trains',
    dividend: r.step === 'dividend' ? `pays out or withholds $${r.turn.revenue}` : '',
    train: mustBuyTrain(state, corp) ? 'must buy a train' : 'may buy trains',
    company: 'may buy a private',
  };
  return `${r.current} ${steps[r.step] ?? 'operates'}`;
}

function mustDiscard(state: Game1830State): string | null {
  const limit = DATA.phases[state.phase]!.trainLimit;
  for (const d of DATA.corporations) {
    const c = state.corps[d.sym]!;
    if (!c.closed && c.trains.length > limit) return c.sym;
  }
  return null;
}

export function buildView(state: Game1830State, seat: Seat | null, toAct: Seat[]): View {
  const r = state.round;
  const offer = state.offer;
  const status = state.finished
    ? `Game over: ${state.endReason ?? ''}`
    : offer
      ? offer.by === offer.seller
        ? `${roundName(state)}: the owner of ${offer.company} offers it to another player for $${offer.price}; the buyer accepts or declines`
        : `${roundName(state)}: ${typeof offer.buyer === 'string' ? offer.buyer : 'a player'} offers $${offer.price} for ${offer.company}; its owner accepts or declines`
      : `${roundName(state)}: ${doing(state)}`;
  const players = Array.from({ length: state.seats }, (_, s) => ({
    seat: s,
    cash: state.cash[s]!,
    value: playerValue(state, s),
    certs: certCount(state, s),
    priority: state.order[0] === s,
    bankrupt: state.bankrupt[s]!,
    shares: Object.fromEntries(
      Object.values(state.corps)
        .filter((c) => c.held[s]! > 0)
        .map((c) => [c.sym, c.held[s]!]),
    ),
    presidencies: Object.values(state.corps)
      .filter((c) => c.president === s)
      .map((c) => c.sym),
    privates: Object.values(state.privates)
      .filter((p) => p.owner === s)
      .map((p) => p.sym),
    cells: DATA.corporations.map((d) => {
      const c = state.corps[d.sym]!;
      return { sym: d.sym, percent: c.held[s]!, president: c.president === s };
    }),
  }));
  const corporations = DATA.corporations.map((d) => {
    const c = state.corps[d.sym]!;
    return {
      sym: d.sym,
      name: d.name,
      color: d.color,
      textColor: d.textColor,
      home: d.home,
      ipoed: c.ipoed,
      floated: c.floated,
      closed: c.closed,
      par: c.par ? parPrice(c) : null,
      price: c.cell ? sharePrice(c) : null,
      cell: c.cell,
      cash: c.cash,
      ipo: c.ipo,
      pool: c.pool,
      president: c.president,
      trains: c.trains.map((t) => t.split('-')[0]!),
      tokens: tokenHexes(state, d.sym),
      tokensLeft: d.tokens.length - c.tokensUsed,
      presidentSeat: c.president,
      privates: c.companies,
    };
  });
  const privates = DATA.privates.map((d) => {
    const p = state.privates[d.sym]!;
    return {
      sym: d.sym,
      name: d.name,
      value: d.value,
      revenue: d.revenue,
      owner: p.owner,
      closed: p.closed,
      price: d.value - p.discount,
      ownerSeat: typeof p.owner === 'number' ? p.owner : null,
      ownerCorp: typeof p.owner === 'string' ? p.owner : null,
    };
  });
  const market = DATA.marketRows.map((row, ri) =>
    row.map((cell, ci) => (cell ? { price: cell[0], zone: cell[1], corps: state.stacks[key([ri, ci])] ?? [] } : null)),
  );
  const depot: Record<string, number> = {};
  const discarded: Record<string, number> = {};
  for (const t of state.trains) {
    if (t.owner === 'depot') depot[t.name] = (depot[t.name] ?? 0) + 1;
    if (t.owner === 'pool') discarded[t.name] = (discarded[t.name] ?? 0) + 1;
  }
  const depotList = Object.entries(depot).map(([name, count]) => ({
    name,
    count: name === 'D' ? 'unlimited' : count,
    price: TRAINS[name]!.price,
  }));
  const auction =
    r.kind === 'auction'
      ? { available: r.available, bids: r.bids, auctioning: r.auctioning, pendingPar: r.pendingPar }
      : null;
  const corpOrder = DATA.corporations.map((d) => d.sym);
  const r2 = state.round;
  const turn =
    r2.kind === 'stock'
      ? { actions: r2.turnActions.map((a) => a.type), sold: seat === null ? [] : Object.keys(r2.sold[seat] ?? {}) }
      : null;
  return {
    seat,
    toAct,
    status,
    corpOrder,
    turn,
    board: state.map,
    round: roundName(state),
    phase: DATA.phases[state.phase]!.name,
    trainLimit: DATA.phases[state.phase]!.trainLimit,
    bank: state.bank,
    certLimit: certLimit(state),
    players,
    corporations,
    privates,
    market,
    depot,
    depotList,
    discarded,
    auction,
    operating: r.kind === 'operating' ? { current: r.current, step: r.step } : null,
    options: operatingOptions(state, seat !== null && toAct.includes(seat) ? seat : null),
    finished: state.finished,
    endReason: state.endReason,
    corpNames: Object.fromEntries(Object.values(CORPS).map((c) => [c.sym, c.name])),
    privateNames: Object.fromEntries(Object.values(PRIVATES).map((p) => [p.sym, p.name])),
  };
}
