// Our 1830 game written as an 18xx.games export (the inverse of replay.ts): the moves are
// replayed through our engine and each becomes the 18xx.games action it stands for.
//
//   export18xx({ players: [{ id, name }], options, log: [{ seat, action }] }) -> Export18xx
//
// What 18xx.games has and our moves do not name is worked out on the way:
// - share certificates: 18xx.games names them (PRR_0 is the president's, PRR_1..8 the 10%
//   shares). A model here follows every certificate as 18xx.games moves it (IPO shares in
//   order, the pool's oldest first, a seller's 10% shares before the president's, the
//   presidency swap taking the new president's first two shares) and is checked against our
//   state after every move;
// - tiles and cities by 18xx.games id ("57-1", city "57-1-0" or a printed hex's "E11-0-0");
// - routes as one hex chain per stretch from stop to stop;
// - a private offered to its owner and accepted becomes one buy_company; a declined offer
//   leaves nothing (18xx.games has no consent step);
// - "run and pay out" in one move becomes run_routes and dividend.
// A private sold on the seller's turn or in an emergency (seed rule set) has no 18xx.games
// action: such a game cannot be exported (ExportError says where).
import { RuleError, type Options } from '../../types.ts';
import { game1830 } from '../index.ts';
import { DATA, PAR_CELLS } from '../data.ts';
import { reservedSlots, resolveRoute, type Board, type RouteInput } from '../track/index.ts';
import type { Action1830 } from '../actions.ts';
import type { Game1830State } from '../state.ts';
import type { Raw18xxAction } from './resolve.ts';
import { resultOf, type Export18xx } from './replay.ts';

export class ExportError extends Error {}

export interface ExportInput {
  players: { id: string | number; name: string }[];
  options: Options;
  log: { seat: number; action: Action1830 }[];
  /** The 18xx.games game id and seed written into the export (any number; 1830 uses no randomness). */
  id?: number;
  /** The rules version the game was played under (rules/version.ts); the current one when absent. */
  rulesVersion?: number;
}

type Holder = 'ipo' | 'pool' | number;

/** Where every share certificate of every corporation is, in 18xx.games's order of holding. */
class Certificates {
  private readonly lists = new Map<string, Map<Holder, string[]>>();

  constructor(corps: string[]) {
    for (const sym of corps) {
      const ipo = Array.from({ length: 9 }, (_, i) => `${sym}_${i}`);
      this.lists.set(sym, new Map<Holder, string[]>([['ipo', ipo]]));
    }
  }

  of(sym: string, holder: Holder): string[] {
    const m = this.lists.get(sym)!;
    let l = m.get(holder);
    if (!l) m.set(holder, (l = []));
    return l;
  }

  move(sym: string, id: string, from: Holder, to: Holder): void {
    const l = this.of(sym, from);
    const i = l.indexOf(id);
    if (i < 0) throw new ExportError(`certificate ${id} is not where it should be`);
    l.splice(i, 1);
    this.of(sym, to).push(id);
  }

  holderOf(sym: string, id: string): Holder | undefined {
    for (const [h, l] of this.lists.get(sym)!) if (l.includes(id)) return h;
    return undefined;
  }

  percent(sym: string, holder: Holder): number {
    return this.of(sym, holder).reduce((n, id) => n + pct(id), 0);
  }

  /** The presidency swap of 18xx.games: the new president's first two shares go to `swapTo`, the president's certificate to him. */
  changePresident(sym: string, president: number, swapTo: Holder): void {
    const pres = `${sym}_0`;
    const from = this.holderOf(sym, pres)!;
    for (const id of this.of(sym, president).slice(0, 2)) this.move(sym, id, president, swapTo);
    this.move(sym, pres, from, president);
  }
}

const pct = (id: string): number => (id.endsWith('_0') ? 20 : 10);

/** The 18xx.games id of the tile on a hex and of one of its cities. */
function cityId(board: Board, hex: string, city: number): string {
  const t = board.tiles[hex];
  return t ? `${t.tile}-${t.copy}-${city}` : `${hex}-0-${city}`;
}

/** A route as 18xx.games has it: one hex chain per stretch from stop to stop. */
function routeOut(board: Board, route: RouteInput): Record<string, unknown> {
  const { lanes } = resolveRoute(board, route);
  const connections =
    lanes.length === route.connections.length ? route.connections.map((c) => [...c]) : lanes.map((l) => [...l.hexes]);
  return { train: route.train, connections, ...(route.nodes ? { nodes: [...route.nodes] } : {}) };
}

export function export18xx(input: ExportInput): Export18xx {
  const ids = input.players.map((p) => p.id);
  const pid = (seat: number) => ids[seat]!;
  const state = game1830.setup(ids.length, 'export', input.options, input.rulesVersion);
  const certs = new Certificates(Object.keys(state.corps));
  const out: Raw18xxAction[] = [];
  const emit = (a: Omit<Raw18xxAction, 'id'>) => out.push({ ...a, id: out.length + 1 } as Raw18xxAction);
  const player = (seat: number) => ({ entity: pid(seat), entity_type: 'player' });
  const corpEntity = (sym: string) => ({ entity: sym, entity_type: 'corporation' });

  input.log.forEach(({ seat, action }, n) => {
    const where = `move ${n + 1} (${action.type})`;
    const before = structuredClone(state);
    const operating = before.round.kind === 'operating' ? before.round.current : null;
    const apply = (a: Action1830) => {
      try {
        game1830.apply(state, seat, a);
      } catch (err) {
        if (err instanceof RuleError) throw new ExportError(`${where} does not apply: ${err.message}`);
        throw err;
      }
    };
    const offer = before.offer;
    if (offer) {
      apply(action);
      if (action.type === 'exchange') {
        exchanged(action.from);
      } else if (action.type === 'buyCompany') {
        if (offer.by === offer.seller)
          throw new ExportError(`${where}: a private sold by its owner's offer (seed rules) has no 18xx.games action`);
        const buyer = typeof offer.buyer === 'number' ? player(offer.buyer) : corpEntity(offer.buyer);
        emit({ type: 'buy_company', ...buyer, company: offer.company, price: offer.price });
      }
      check(where);
      return;
    }
    switch (action.type) {
      case 'bid':
        apply(action);
        emit({ type: 'bid', ...player(seat), company: action.company, price: action.price });
        break;
      case 'pass':
        apply(action);
        emit({ type: 'pass', ...(operating ? corpEntity(operating) : player(seat)) });
        break;
      case 'par': {
        apply(action);
        auctionCertificates();
        const cell = PAR_CELLS.find((c) => c[0] === action.price)!;
        emit({
          type: 'par',
          ...player(seat),
          corporation: action.corp,
          share_price: `${cell[0]},${cell[1]},${cell[2]}`,
        });
        const pres = `${action.corp}_0`;
        if (certs.holderOf(action.corp, pres) === 'ipo') certs.move(action.corp, pres, 'ipo', seat);
        break;
      }
      case 'buy': {
        const id = certs.of(action.corp, action.from).find((x) => pct(x) === 10);
        if (!id) throw new ExportError(`${where}: no ${action.corp} certificate in the ${action.from}`);
        apply(action);
        emit({ type: 'buy_shares', ...player(seat), shares: [id], percent: 10 });
        certs.move(action.corp, id, action.from, seat);
        presidencyAfterGain(action.corp, before, action.from);
        break;
      }
      case 'exchange': {
        apply(action);
        exchanged(action.from);
        break;
      }
      case 'sell': {
        const shares = sellBundle(action.corp, seat, action.percent);
        apply(action);
        emit({ type: 'sell_shares', ...player(seat), shares, percent: action.percent });
        sold(action.corp, seat, shares, action.percent, before);
        break;
      }
      case 'layTile': {
        apply(action);
        const t = board().tiles[action.hex]!;
        emit({
          type: 'lay_tile',
          ...(action.via ? { entity: action.via, entity_type: 'company' } : corpEntity(operating!)),
          hex: action.hex,
          tile: `${t.tile}-${t.copy}`,
          rotation: action.rotation,
        });
        break;
      }
      case 'placeToken': {
        // the slot: a corporation's own home reservation is its slot 0; otherwise the next one after
        // the stations there and the slots other corporations' homes hold
        const b0 = before.map as Board;
        const who = b0.pending.length ? b0.pending[0]!.corp : (operating ?? '');
        const home = Object.hasOwn(b0.homes, who) ? b0.homes[who] : undefined;
        const slot =
          home && home.hex === action.hex && (home.city === null || home.city === action.city)
            ? 0
            : (b0.tokens[action.hex]?.[action.city]?.length ?? 0) + reservedSlots(b0, action.hex, action.city, who);
        apply(action);
        emit({
          type: 'place_token',
          ...(action.via ? { entity: action.via, entity_type: 'company' } : corpEntity(operating!)),
          city: cityId(board(), action.hex, action.city),
          slot,
          tokener: who,
        });
        break;
      }
      case 'runRoutes': {
        const routes = action.routes.map((r) => routeOut(board(), r));
        apply({ type: 'runRoutes', routes: action.routes });
        emit({ type: 'run_routes', ...corpEntity(operating!), routes, extra_revenue: 0 });
        const r = state.round;
        if (action.dividend && r.kind === 'operating' && r.current === operating && r.step === 'dividend') {
          apply({ type: 'dividend', kind: action.dividend });
          emit({ type: 'dividend', ...corpEntity(operating!), kind: action.dividend });
        }
        break;
      }
      case 'dividend':
        apply(action);
        emit({ type: 'dividend', ...corpEntity(operating!), kind: action.kind });
        break;
      case 'buyTrain': {
        const fromBank = ['depot', 'pool'].includes(before.trains.find((t) => t.id === action.train)?.owner ?? '');
        apply(action);
        emit({
          type: 'buy_train',
          ...corpEntity(operating!),
          train: action.train,
          price: action.price,
          ...(fromBank ? { variant: action.train.split('-')[0] } : {}),
          ...(action.exchange ? { exchange: action.exchange } : {}),
        });
        break;
      }
      case 'discardTrain':
        apply(action);
        emit({ type: 'discard_train', ...corpEntity(action.corp), train: action.train });
        break;
      case 'buyCompany': {
        apply(action);
        if (state.offer) break; // written when the owner accepts
        emit({
          type: 'buy_company',
          ...(before.round.kind === 'operating' ? corpEntity(operating!) : player(seat)),
          company: action.company,
          price: action.price,
        });
        break;
      }
      case 'sellCompany':
        apply(action);
        throw new ExportError(`${where}: a private sold by its owner's offer (seed rules) has no 18xx.games action`);
      case 'bankrupt':
        apply(action);
        emit({ type: 'bankrupt', ...corpEntity(operating!) });
        return; // his shares may have gone to the pool; the game is over
    }
    check(where);

    function exchanged(from: 'ipo' | 'pool'): void {
      const id = certs.of('NYC', from).find((x) => pct(x) === 10);
      if (!id) throw new ExportError(`${where}: no NYC certificate in the ${from}`);
      emit({ type: 'buy_shares', entity: 'MH', entity_type: 'company', shares: [id], percent: 10 });
      certs.move('NYC', id, from, seat);
      presidencyAfterGain('NYC', before, from);
    }
  });

  function board(): Board {
    return state.map as Board;
  }

  /** The C&A's PRR share goes with the private (the B&O's president's certificate with its par). */
  function auctionCertificates(): void {
    const gifts: [string, string, string][] = [['CA', 'PRR', 'PRR_1']];
    for (const [company, corp, id] of gifts) {
      const owner = state.privates[company]!.owner;
      if (typeof owner === 'number' && certs.holderOf(corp, id) === 'ipo') certs.move(corp, id, 'ipo', owner);
    }
  }

  /** After a share bought or exchanged: the presidency swap of 18xx.games if the president changed. */
  function presidencyAfterGain(sym: string, before: Game1830State, _from: 'ipo' | 'pool'): void {
    const was = before.corps[sym]!.president;
    const now = state.corps[sym]!.president;
    if (was === null || now === null || was === now) return;
    // the old president still holds the 20% certificate: the two shares go to him
    certs.changePresident(sym, now, certs.percent(sym, was) >= 20 ? was : 'pool');
  }

  /** The certificates 18xx.games sells for `percent`: 10% shares first (in order of holding), then the president's. */
  function sellBundle(sym: string, seat: number, percent: number): string[] {
    const held = certs.of(sym, seat);
    const normal = held.filter((id) => pct(id) === 10);
    const n = percent / 10;
    if (n <= normal.length) return normal.slice(0, n);
    return [...normal, ...held.filter((id) => pct(id) === 20)];
  }

  function sold(sym: string, seat: number, shares: string[], percent: number, before: Game1830State): void {
    for (const id of shares) certs.move(sym, id, seat, 'pool');
    const was = before.corps[sym]!.president;
    const now = state.corps[sym]!.president;
    if (was !== null && now !== null && was !== now) {
      certs.changePresident(sym, now, certs.percent(sym, was) >= 20 ? was : 'pool');
    }
    // a part of the president's certificate sold: the difference comes back from the pool's oldest shares
    const partial = (shares.reduce((a, id) => a + pct(id), 0) - percent) / 10;
    for (let i = 0; i < partial; i++) certs.move(sym, certs.of(sym, 'pool')[0]!, 'pool', seat);
  }

  /** The model of certificates says what our state says (a wrong model would export wrong share ids). */
  function check(where: string): void {
    auctionCertificates();
    for (const sym in state.corps) {
      const c = state.corps[sym]!;
      const problems: string[] = [];
      if (certs.percent(sym, 'pool') !== c.pool) problems.push(`pool ${certs.percent(sym, 'pool')} vs ${c.pool}`);
      for (let s = 0; s < state.seats; s++) {
        if (certs.percent(sym, s) !== c.held[s]) problems.push(`seat ${s} ${certs.percent(sym, s)} vs ${c.held[s]}`);
      }
      const pres = certs.holderOf(sym, `${sym}_0`);
      if (c.president !== null && pres !== c.president) problems.push(`president ${String(pres)} vs ${c.president}`);
      if (problems.length)
        throw new ExportError(`after ${where}: the certificates of ${sym} went astray (${problems.join(', ')})`);
    }
  }

  const optional = DATA.options.filter((o) => input.options[o.id] === true).map((o) => o.id);
  return {
    id: input.id ?? 1,
    title: '1830',
    players: input.players.map((p) => ({ id: p.id, name: p.name })),
    settings: { optional_rules: optional, seed: input.id ?? 1 },
    actions: out,
    result: resultOf(
      state,
      ids.map((id) => String(id)),
    ),
    ...(state.finished ? { game_end_reason: state.endCode ?? undefined } : {}),
  } as Export18xx;
}
