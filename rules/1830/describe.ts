// One public line of history per action, in 18xx words. The server puts the acting
// player's name in front ("Ada " + line), so every line starts with the verb:
// "buys a 10% share of PRR from the IPO for $67", "runs PRR's 2 trains for $130".
// The same line labels the move's button on the player's page. `after` is the state the
// action leads to (null when it is refused); it names what the move brought about
// (a presidency, a float, a new phase). Other seats are never named by number: the
// page shows players by name, and who holds what.
import type { Action1830 } from './actions.ts';
import { imperative, verbToImperative } from '../label.ts';
import { CORPS, DATA, PRIVATES, TRAINS } from './data.ts';
import { parPrice, sharePrice } from './market.ts';
import type { Game1830State } from './state.ts';
import { SHARE_PERCENT } from './shares.ts';
import { runRoutes as mapRunRoutes, checkTileLay, type Board } from './track/index.ts';
import { board, layContext, phaseName } from './operating/common.ts';
import { trainInputs } from './operating/apply.ts';

function privateName(sym: string): string {
  const p = PRIVATES[sym];
  return p ? `${p.name} (${sym})` : sym;
}
function trainName(id: string): string {
  return `${id.split('-')[0]} train`;
}
function shares(percent: number): string {
  const n = percent / SHARE_PERCENT;
  return n === 1 ? 'a 10% share' : `${n} shares (${percent}%)`;
}
function list(parts: string[]): string {
  return parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

export function operatorOf(state: Game1830State): string | null {
  return state.round.kind === 'operating' ? state.round.current : null;
}

/** What the move brought about besides itself, from the states before and after. */
function effects(before: Game1830State, after: Game1830State | null, seat: number, action: Action1830): string[] {
  if (!after) return [];
  const out: string[] = [];
  // privates that went to a bidder as a result (a lone bid once the cheaper ones are sold, the last bidder of a war);
  // other seats are not named by number: the page names players, and shows who owns what
  if (before.round.kind === 'auction') {
    const bids = before.round.bids;
    for (const sym in after.privates) {
      const o = after.privates[sym]!.owner;
      if (
        typeof o === 'number' &&
        before.privates[sym]!.owner === null &&
        !(o === seat && action.type === 'bid' && action.company === sym)
      ) {
        const price = bids[sym]?.find((b) => b.seat === o)?.price;
        const to = o === seat ? 'them' : (bids[sym]?.length ?? 0) > 1 ? 'the last bidder' : 'its only bidder';
        out.push(`${sym} goes to ${to}${price !== undefined ? ` for $${price}` : ''}`);
      }
    }
  }
  for (const sym in after.corps) {
    const a = after.corps[sym]!,
      b = before.corps[sym]!;
    if (
      a.president !== b.president &&
      a.president !== null &&
      action.type !== 'par' &&
      !(action.type === 'bid' && b.president === null)
    ) {
      out.push(a.president === seat ? `becomes president of ${sym}` : `the presidency of ${sym} changes hands`);
    }
    if (a.floated && !b.floated) out.push(`${sym} floats with $${parPrice(a) * 10}`);
  }
  if (after.phase !== before.phase) {
    const ph = DATA.phases[after.phase]!;
    const rusted = new Set<string>();
    for (const t of after.trains) {
      const old = before.trains.find((x) => x.id === t.id);
      if (t.owner === 'gone' && old && old.owner !== 'gone' && old.owner !== 'depot') rusted.add(t.name);
    }
    out.push(`phase ${ph.name} begins (train limit ${ph.trainLimit})`);
    for (const name of rusted) out.push(`the ${name} trains rust`);
  }
  const closed = Object.keys(after.privates).filter(
    (s) => after.privates[s]!.closed && !before.privates[s]!.closed && !(action.type === 'exchange' && s === 'MH'),
  );
  if (closed.length) out.push(closed.length === 1 ? `private ${closed[0]} closes` : `privates ${list(closed)} close`);
  if (after.bankBroken && !before.bankBroken && !after.finished)
    out.push('the bank is broken: the game ends after this set of operating rounds');
  if (after.finished && !before.finished) out.push(`the game ends (${after.endReason ?? 'over'})`);
  else if (before.round.kind === 'stock' && after.round.kind !== 'stock') out.push('the stock round ends');
  return out;
}

/** " (PRR rises to $82)" after a dividend, from the states before and after. */
function priceMove(before: Game1830State, after: Game1830State | null, op: string | null): string {
  const corp = op && after ? after.corps[op] : undefined;
  if (!op || !corp) return '';
  const was = sharePrice(before.corps[op]!),
    now = sharePrice(corp);
  return ` (${op} ${now > was ? 'rises' : now < was ? 'falls' : 'stays'} ${now === was ? 'at' : 'to'} $${now})`;
}

/** priceMove, only when the price moved (a run with no revenue withholds on its own). */
function priceChange(before: Game1830State, after: Game1830State | null, op: string | null): string {
  const corp = op && after ? after.corps[op] : undefined;
  if (!op || !corp || sharePrice(corp) === sharePrice(before.corps[op]!)) return '';
  return priceMove(before, after, op);
}

function main(action: Action1830, before: Game1830State, seat: number, after: Game1830State | null): string {
  const op = operatorOf(before);
  const offer = before.offer;
  const sellerOffered = offer !== undefined && offer.by === offer.seller;
  if (offer && action.type === 'pass')
    return sellerOffered
      ? `declines to buy ${privateName(offer.company)} for $${offer.price}`
      : `declines to sell ${privateName(offer.company)} for $${offer.price}`;
  if (offer && sellerOffered && action.type === 'buyCompany')
    return `buys ${privateName(offer.company)} from {seat:${offer.seller}} for $${offer.price}`;
  if (offer && action.type === 'buyCompany') {
    return `accepts $${offer.price} for their ${privateName(offer.company)}${typeof offer.buyer === 'string' ? ` from ${offer.buyer}` : ''}`;
  }
  if (action.type === 'buyCompany' && after?.offer) {
    return `offers $${action.price}${op ? ` of ${op}'s money` : ''} for ${privateName(action.company)}; its owner accepts or declines`;
  }
  switch (action.type) {
    case 'pass': {
      const r = before.round;
      if (r.kind === 'auction') return r.auctioning ? `passes on ${r.auctioning}` : 'passes';
      if (r.kind === 'stock') return r.turnActions.length ? 'ends the turn' : 'passes';
      const words: Record<string, string> = {
        track: `lays no tile for ${op}`,
        token: `places no station for ${op}`,
        train: `buys no more trains for ${op}`,
        company: `ends ${op}'s turn`,
      };
      return words[r.step] ?? 'passes';
    }
    case 'bid': {
      const r = before.round;
      if (r.kind === 'auction' && !r.auctioning && r.available[0] === action.company)
        return `buys ${privateName(action.company)} for $${action.price}`;
      return `bids $${action.price} for ${action.company}`;
    }
    case 'par': {
      if (before.round.kind === 'auction') return `sets the par value of ${action.corp} at $${action.price}`;
      return `pars ${action.corp} at $${action.price} and buys the president's certificate for $${action.price * 2}`;
    }
    case 'buy': {
      const corp = before.corps[action.corp];
      const price = corp ? (action.from === 'ipo' ? parPrice(corp) : sharePrice(corp)) : 0;
      return `buys a 10% share of ${action.corp} from the ${action.from === 'ipo' ? 'IPO' : 'pool'} for $${price}`;
    }
    case 'sell': {
      const corp = before.corps[action.corp];
      const price = corp ? (sharePrice(corp) * action.percent) / SHARE_PERCENT : 0;
      const why = before.round.kind === 'operating' ? ` to raise money for ${op}'s train` : '';
      return `sells ${shares(action.percent)} of ${action.corp} for $${price}${why}`;
    }
    case 'exchange':
      return `exchanges the Mohawk & Hudson (MH) for a 10% share of NYC from the ${action.from === 'ipo' ? 'IPO' : 'pool'}`;
    case 'layTile': {
      let cost = 0;
      if (before.round.kind === 'operating' && op) {
        try {
          const r = before.round;
          const ctx = {
            ...layContext(before, before.corps[op]!, r.turn.laid),
            ...(action.via ? { via: action.via } : {}),
          };
          cost = checkTileLay(board(before), ctx, {
            hex: action.hex,
            tile: action.tile,
            rotation: action.rotation,
            ...(action.copy !== undefined ? { copy: action.copy } : {}),
          }).cost;
        } catch {
          cost = 0;
        }
      }
      const via = action.via ? ` with the ${action.via === 'CS' ? 'C&SL' : 'D&H'}` : '';
      return `lays tile #${action.tile} on ${action.hex} (rotation ${action.rotation})${via} for ${op}${cost ? `, paying $${cost}` : ''}`;
    }
    case 'placeToken': {
      const city = action.city ? ` (city ${action.city + 1})` : '';
      const b = before.map as Board | null;
      const pending = b?.pending[0];
      if (pending) return `puts ${pending.corp}'s station back on ${action.hex}${city}`;
      if (before.round.kind === 'operating' && before.round.step === 'home')
        return `places ${op}'s home station on ${action.hex}${city}`;
      if (action.via === 'DH') return `places a ${op} station on ${action.hex}${city} with the D&H, free`;
      const corp = op ? before.corps[op] : undefined;
      const cost = corp ? (CORPS[corp.sym]!.tokens[corp.tokensUsed] ?? 0) : 0;
      return `places a ${op} station on ${action.hex}${city} for $${cost}`;
    }
    case 'runRoutes': {
      // Running nothing withholds nothing: the price still drops, and the history says so.
      if (action.routes.length === 0) return `runs no trains for ${op}${priceChange(before, after, op)}`;
      let revenue: number | null = null;
      let parts: string[] = [];
      const corp = op ? before.corps[op] : undefined;
      if (corp) {
        try {
          const res = mapRunRoutes(board(before), corp.sym, phaseName(before), trainInputs(corp), action.routes);
          revenue = res.revenue;
          const one = res.routes.length === 1;
          parts = res.routes.map(
            (x) =>
              `${one ? '' : `${trainName(x.train)} `}${x.stops.map((s) => s.split('-')[0]).join('-')}${one ? '' : ` $${x.revenue}`}`,
          );
        } catch {
          revenue = null;
        }
      }
      const n = action.routes.length;
      const trains = n === 1 ? `${op}'s ${trainName(action.routes[0]!.train)}` : `${op}'s ${n} trains`;
      const run =
        revenue === null
          ? `runs ${trains}`
          : `runs ${trains} for $${revenue}${parts.length ? ` (${parts.join('; ')})` : ''}`;
      if (!action.dividend || !revenue) return `${run}${priceChange(before, after, op)}`;
      return `${run} and ${action.dividend === 'payout' ? `pays out $${revenue / 10} per share` : 'withholds it'}${priceMove(before, after, op)}`;
    }
    case 'dividend': {
      const r = before.round;
      const revenue = r.kind === 'operating' ? r.turn.revenue : 0;
      const price = priceMove(before, after, op);
      if (action.kind === 'payout') return `pays out $${revenue / 10} per share of ${op}'s $${revenue}${price}`;
      return `withholds ${op}'s $${revenue}${price}`;
    }
    case 'buyTrain': {
      const t = before.trains.find((x) => x.id === action.train);
      const from = !t || t.owner === 'depot' ? 'the bank' : t.owner === 'pool' ? 'the bank pool' : t.owner;
      const corp = op ? before.corps[op] : undefined;
      const own = corp && corp.cash < action.price ? `, adding $${action.price - corp.cash} of their own money` : '';
      const trade = action.exchange ? `, trading in a ${trainName(action.exchange)}` : '';
      const name = TRAINS[action.train.split('-')[0]!] ? trainName(action.train) : action.train;
      return `buys a ${name} from ${from} for ${op} for $${action.price}${trade}${own}`;
    }
    case 'discardTrain':
      return `discards ${action.corp}'s ${trainName(action.train)} to the bank pool`;
    case 'buyCompany': {
      const owner = before.privates[action.company]?.owner;
      if (before.round.kind === 'stock')
        return `buys ${privateName(action.company)} from its owner for $${action.price}`;
      if (owner === seat) return `sells their ${privateName(action.company)} to ${op} for $${action.price}`;
      return `buys ${privateName(action.company)} for ${op} from its owner for $${action.price}`;
    }
    case 'sellCompany':
      return `offers their ${privateName(action.company)} to {seat:${action.to}} for $${action.price}${op ? ` to raise money for ${op}'s train` : ''}; the buyer accepts or declines`;
    case 'bankrupt':
      return `goes bankrupt, unable to buy ${op} a train`;
  }
}

export function describeAction(
  action: Action1830,
  before: Game1830State,
  seat: number,
  after: Game1830State | null = null,
): string {
  const fx = effects(before, after, seat, action);
  return fx.length ? `${main(action, before, seat, after)}; ${fx.join('; ')}` : main(action, before, seat, after);
}

/**
 * A move's button words (rules/types.ts `label`): the move itself, without what it brings
 * about, in the imperative ("Buy a 10% share of PRR from the IPO for $67", "Par NYC at $90").
 */
export function labelAction(action: Action1830, before: Game1830State, seat: number): string {
  if (action.type === 'exchange')
    return `Exchange MH for a NYC share from the ${action.from === 'ipo' ? 'IPO' : 'pool'}`;
  if (action.type === 'par' && before.round.kind !== 'auction')
    return `Par ${action.corp} at $${action.price} (president's certificate $${action.price * 2})`;
  if (action.type === 'runRoutes' && action.routes.length > 0) {
    // The routes' detail (which may itself hold ";") is on the map; the label says what is paid.
    const run = main({ ...action, dividend: undefined } as Action1830, before, seat, null).replace(/ \(.*\)$/, '');
    const div = action.dividend === 'payout' ? ' and pay out' : action.dividend === 'withhold' ? ' and withhold' : '';
    return imperative(run) + div;
  }
  const line = main(action, before, seat, null)
    .replace(/ \((?:[A-Z&]+) (?:rises|falls|stays) (?:to|at) \$\d+\)$/, '')
    .replace(/\band (buys|pays|withholds|sells)\b/g, (_, v: string) => `and ${verbToImperative(v)}`)
    .replace(/\btheir\b/g, 'your');
  return imperative(line.split('; ')[0]!);
}
