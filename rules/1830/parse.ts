// Text commands: "buy PRR ipo", "buy NYC pool", "sell NYC 2", "par B&O 67", "bid CA 165",
// "pass", "payout", "withhold", "train", "buy train 3".
import { RuleError } from '../types';
import type { Action1830 } from './actions';
import { CORP_SYMS, PRIVATE_SYMS } from './data';
import type { Game1830State } from './state';

function corpOf(word: string | undefined): string {
  const w = (word ?? '').toUpperCase().replace(/^BO$/, 'B&O').replace(/^CO$/, 'C&O').replace(/^BM$/, 'B&M');
  const sym = CORP_SYMS.find((c) => c === w);
  if (!sym) throw new RuleError(`unknown corporation "${word ?? ''}"; use one of ${CORP_SYMS.join(', ')}`);
  return sym;
}

export function parseCommand(text: string, state: Game1830State, _seat: number): Action1830 {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const verb = (words[0] ?? '').toLowerCase();
  switch (verb) {
    case 'pass': case 'done': case 'skip': return { type: 'pass' };
    case 'bid': {
      const company = (words[1] ?? '').toUpperCase();
      if (!PRIVATE_SYMS.includes(company)) throw new RuleError(`unknown private "${words[1] ?? ''}"; use one of ${PRIVATE_SYMS.join(', ')}`);
      const price = Number(words[2]);
      if (!Number.isInteger(price)) throw new RuleError('say how much: "bid CA 165"');
      return { type: 'bid', company, price };
    }
    case 'par': {
      const corp = corpOf(words[1]);
      const price = Number(words[2]);
      if (!Number.isInteger(price)) throw new RuleError('say the par value: "par PRR 67"');
      return { type: 'par', corp, price };
    }
    case 'buy': {
      if ((words[1] ?? '').toLowerCase() === 'train') {
        const name = words[2];
        const depot = state.trains.find((t) => t.owner === 'depot' && (!name || t.name === name));
        if (!depot) throw new RuleError('no such train in the depot');
        return { type: 'buyTrain', train: depot.id, price: 0 } as unknown as Action1830;
      }
      const corp = corpOf(words[1]);
      const from = (words[2] ?? 'ipo').toLowerCase();
      if (from !== 'ipo' && from !== 'pool') throw new RuleError('buy from "ipo" or "pool": "buy PRR ipo"');
      return { type: 'buy', corp, from };
    }
    case 'sell': {
      const corp = corpOf(words[1]);
      const n = words[2] === undefined ? 1 : Number(words[2]);
      if (!Number.isInteger(n) || n < 1) throw new RuleError('say how many shares: "sell NYC 2"');
      return { type: 'sell', corp, percent: n * 10 };
    }
    case 'payout': return { type: 'dividend', kind: 'payout' };
    case 'withhold': return { type: 'dividend', kind: 'withhold' };
    case 'bankrupt': return { type: 'bankrupt' };
    default:
      throw new RuleError('commands: pass, bid CA 165, par PRR 67, buy PRR ipo, buy NYC pool, sell NYC 2, payout, withhold');
  }
}
