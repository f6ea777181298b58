// One public line of history per action, in 18xx words.
import type { Action1830 } from './actions';
import { PRIVATES } from './data';
import { parPrice, sharePrice } from './market';
import type { Game1830State } from './state';

function who(seat: number): string {
  return `Player ${seat + 1}`;
}

export function operatorOf(state: Game1830State): string | null {
  return state.round.kind === 'operating' ? state.round.current : null;
}

export function describeAction(action: Action1830, before: Game1830State, seat: number): string {
  const p = who(seat);
  const op = operatorOf(before);
  const by = op ? `${op} (${p})` : p;
  switch (action.type) {
    case 'pass': {
      const r = before.round;
      if (r.kind === 'auction') return r.auctioning ? `${p} passes on ${r.auctioning}` : `${p} passes`;
      if (r.kind === 'stock') return r.turnActions.length ? `${p} ends the turn` : `${p} passes`;
      const words: Record<string, string> = {
        track: 'lays no tile', token: 'places no station', train: 'buys no more trains', company: 'ends its turn',
      };
      return `${by} ${words[r.step] ?? 'passes'}`;
    }
    case 'bid': {
      const r = before.round;
      if (r.kind === 'auction' && !r.auctioning && r.available[0] === action.company) return `${p} buys ${PRIVATES[action.company]?.name ?? action.company} (${action.company}) for $${action.price}`;
      return `${p} bids $${action.price} for ${action.company}`;
    }
    case 'par': return `${p} pars ${action.corp} at $${action.price} and buys the president's certificate`;
    case 'buy': {
      const corp = before.corps[action.corp];
      const price = corp ? (action.from === 'ipo' ? parPrice(corp) : sharePrice(corp)) : 0;
      return `${p} buys a 10% share of ${action.corp} from the ${action.from === 'ipo' ? 'IPO' : 'pool'} for $${price}`;
    }
    case 'sell': {
      const corp = before.corps[action.corp];
      const n = action.percent / 10;
      const price = corp ? sharePrice(corp) * n : 0;
      return `${by} sells ${n === 1 ? 'a 10% share' : `${n} shares`} of ${action.corp} for $${price}`;
    }
    case 'exchange': return `${p} exchanges M&H for a 10% share of NYC from the ${action.from === 'ipo' ? 'IPO' : 'pool'}`;
    case 'layTile': return `${action.via ? `${action.via} for ${op}` : by} lays tile #${action.tile} on ${action.hex} (rotation ${action.rotation})`;
    case 'placeToken': return `${by} places a station token on ${action.hex}${action.city ? ` (city ${action.city + 1})` : ''}`;
    case 'runRoutes': {
      if (action.routes.length === 0) return `${by} runs no trains`;
      const parts = action.routes.map((r) => {
        const stops = r.connections.length ? [r.connections[0]![0]!, ...r.connections.map((c) => c[c.length - 1]!)] : [];
        return `a ${r.train.split('-')[0]} train ${stops.join('-')}`;
      });
      return `${by} runs ${parts.join(', ')}`;
    }
    case 'dividend': return action.kind === 'payout' ? `${by} pays out its revenue` : `${by} withholds its revenue`;
    case 'buyTrain': {
      const t = before.trains.find((x) => x.id === action.train);
      const from = !t || t.owner === 'depot' ? 'the bank' : t.owner === 'pool' ? 'the bank pool' : t.owner;
      return `${by} buys a ${action.train.split('-')[0]} train from ${from} for $${action.price}${action.exchange ? `, trading in a ${action.exchange.split('-')[0]} train` : ''}`;
    }
    case 'discardTrain': return `${action.corp} discards a ${action.train.split('-')[0]} train`;
    case 'buyCompany': {
      const owner = before.privates[action.company]?.owner;
      return `${by} buys ${PRIVATES[action.company]?.name ?? action.company} from ${typeof owner === 'number' ? who(owner) : 'its owner'} for $${action.price}`;
    }
    case 'bankrupt': return `${p} goes bankrupt`;
  }
}
