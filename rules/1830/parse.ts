// Text commands: "buy PRR ipo", "buy NYC pool", "sell NYC 2", "par B&O 67", "bid CA 165",
// "pass", "payout", "withhold", "train", "buy train 3".
import { RuleError } from '../types.ts';
import type { Action1830 } from './actions.ts';
import { CORP_SYMS, PRIVATE_SYMS, TRAINS } from './data.ts';
import { depotOffer, suggestRun } from './operating/index.ts';
import { routesFromText } from './track/index.ts';
import type { Game1830State } from './state.ts';

/** A whole number of dollars (or shares) typed as a word, or NaN. */
function amount(word: string | undefined): number {
  return word !== undefined && /^\d+$/.test(word) ? Number(word) : NaN;
}

function corpOf(word: string | undefined): string {
  const w = (word ?? '').toUpperCase().replace(/^BO$/, 'B&O').replace(/^CO$/, 'C&O').replace(/^BM$/, 'B&M');
  const sym = CORP_SYMS.find((c) => c === w);
  if (!sym) throw new RuleError(`Unknown corporation "${word ?? ''}"; use one of ${CORP_SYMS.join(', ')}`);
  return sym;
}

export function parseCommand(text: string, state: Game1830State, _seat: number): Action1830 {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const verb = (words[0] ?? '').toLowerCase();
  switch (verb) {
    case 'pass':
    case 'done':
    case 'skip':
      return { type: 'pass' };
    case 'bid': {
      const company = (words[1] ?? '').toUpperCase();
      if (!PRIVATE_SYMS.includes(company))
        throw new RuleError(`Unknown private "${words[1] ?? ''}"; use one of ${PRIVATE_SYMS.join(', ')}`);
      const price = amount(words[2]);
      if (!Number.isInteger(price)) throw new RuleError('Say how much: "bid CA 165"');
      return { type: 'bid', company, price };
    }
    case 'par': {
      const corp = corpOf(words[1]);
      const price = amount(words[2]);
      if (!Number.isInteger(price)) throw new RuleError('Say the par value: "par PRR 67"');
      return { type: 'par', corp, price };
    }
    case 'buy': {
      if ((words[1] ?? '').toLowerCase() === 'train') {
        const named = words[2] ? state.trains.find((x) => x.id === words[2]) : undefined;
        if (named) {
          const price = words[3] === undefined ? TRAINS[named.name]!.price : amount(words[3]);
          if (!Number.isInteger(price)) throw new RuleError('Say the price: "buy train 3-1 120"');
          const trade = (words[4] ?? '').toLowerCase() === 'trade' ? words[5] : undefined;
          return { type: 'buyTrain', train: named.id, price, ...(trade ? { exchange: trade } : {}) };
        }
        const name = words[2];
        const offer = depotOffer(state);
        const t = name
          ? offer.find((x) => x.name === name)
          : offer.reduce<(typeof offer)[number] | undefined>(
              (a, b) => (!a || TRAINS[b.name]!.price < TRAINS[a.name]!.price ? b : a),
              undefined,
            );
        if (!t) throw new RuleError(`No ${name ?? ''} train is for sale from the bank now`);
        return { type: 'buyTrain', train: t.id, price: TRAINS[t.name]!.price };
      }
      if (PRIVATE_SYMS.includes((words[1] ?? '').toUpperCase())) {
        const price = amount(words[2]);
        if (!Number.isInteger(price)) throw new RuleError('Say the price: "buy CA 160"');
        return { type: 'buyCompany', company: (words[1] ?? '').toUpperCase(), price };
      }
      const corp = corpOf(words[1]);
      const from = (words[2] ?? 'ipo').toLowerCase();
      if (from !== 'ipo' && from !== 'pool') throw new RuleError('Buy from "ipo" or "pool": "buy PRR ipo"');
      return { type: 'buy', corp, from };
    }
    case 'sell': {
      if (PRIVATE_SYMS.includes((words[1] ?? '').toUpperCase())) {
        // "sell CA 150 to 2": the buyer by his number in the seat order (1 is the first seat)
        const price = amount(words[2]);
        const buyer = amount(words[4]);
        if (!Number.isInteger(price) || (words[3] ?? '').toLowerCase() !== 'to' || !(buyer >= 1))
          throw new RuleError('Say the price and the buyer\'s seat number: "sell CA 150 to 2"');
        return { type: 'sellCompany', company: (words[1] ?? '').toUpperCase(), to: buyer - 1, price };
      }
      const corp = corpOf(words[1]);
      const n = words[2] === undefined ? 1 : amount(words[2]);
      if (!Number.isInteger(n) || n < 1) throw new RuleError('Say how many shares: "sell NYC 2"');
      return { type: 'sell', corp, percent: n * 10 };
    }
    case 'lay': {
      const [hex, tile, rot] = [words[1], words[2], words[3] === undefined ? 0 : amount(words[3])];
      if (!hex || !tile || !Number.isInteger(rot) || rot > 5)
        throw new RuleError('Say hex, tile and rotation: "lay H10 57 1"');
      const via = (words[4] ?? '').toUpperCase().replace('&', '');
      return {
        type: 'layTile',
        hex: hex.toUpperCase(),
        tile: tile.replace(/^#/, ''),
        rotation: rot,
        ...(via === 'CS' || via === 'DH' ? { via } : {}),
      };
    }
    case 'token':
    case 'station': {
      const hex = words[1];
      if (!hex) throw new RuleError('Say where: "token E19" (add the city number for a hex with two: "token E11 1")');
      const city = words[2] !== undefined && /^\d+$/.test(words[2]) ? Number(words[2]) : 0;
      const dh = words.slice(2).some((w) => /^d&?h$/i.test(w));
      return { type: 'placeToken', hex: hex.toUpperCase(), city, ...(dh ? { via: 'DH' as const } : {}) };
    }
    case 'run': {
      const r = state.round;
      const corp = r.kind === 'operating' && r.current ? state.corps[r.current] : undefined;
      if (!corp) throw new RuleError('No corporation is operating');
      // "run" alone runs the suggestion; "run 2-0: I15-J14; 3-0: E19-F20-F22" runs the routes typed
      // a last word "payout" or "withhold" decides the dividend too
      let rest = text.trim().replace(/^\S+\s*/, '');
      const div = /(?:^|\s)(payout|withhold)$/i.exec(rest);
      if (div) rest = rest.slice(0, div.index).trim();
      const dividend = div ? { dividend: div[1]!.toLowerCase() as 'payout' | 'withhold' } : {};
      if (!rest) return { type: 'runRoutes', routes: suggestRun(state, corp), ...dividend };
      if (/^(none|nothing|no trains?)$/i.test(rest)) return { type: 'runRoutes', routes: [] };
      return { type: 'runRoutes', routes: routesFromText(rest), ...dividend };
    }
    case 'discard': {
      const id = words[1] ?? '';
      const t = state.trains.find(
        (x) => x.id === id || (x.name === id && x.owner !== 'depot' && x.owner !== 'pool' && x.owner !== 'gone'),
      );
      if (!t) throw new RuleError('Say which train: "discard 3-1"');
      return { type: 'discardTrain', corp: t.owner, train: t.id };
    }
    case 'exchange': {
      const rest = /^m&?h$/i.test(words[1] ?? '') ? words.slice(2) : words.slice(1);
      const from = (rest[0] ?? 'ipo').toLowerCase();
      if (from !== 'ipo' && from !== 'pool')
        throw new RuleError('Exchange the M&H for an NYC share from "ipo" or "pool": "exchange pool"');
      return { type: 'exchange', company: 'MH', from };
    }
    case 'payout':
      return { type: 'dividend', kind: 'payout' };
    case 'withhold':
      return { type: 'dividend', kind: 'withhold' };
    case 'bankrupt':
      return { type: 'bankrupt' };
    default:
      throw new RuleError(
        'Commands: pass, bid CA 165, par PRR 67, buy PRR ipo, buy NYC pool, sell NYC 2, lay H10 57 1, token E19, run (the suggested routes), run 2-0: I15-J14; 3-0: E19-F20-F22, payout, withhold, buy train, buy train 4, buy CA 160, sell CA 160 to 2 (seed rules), discard 3-1, exchange, bankrupt',
      );
  }
}
