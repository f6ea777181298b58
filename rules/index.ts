// The registry: every game the server offers, by id.
// A new game is served by adding its rules object here; the contract suite
// (test/rules/contract.test.ts) then covers it automatically.
import type { AnyRules } from './types.ts';
import { stephensonsRocket } from './stephensons-rocket/index.ts';
import { paperclipRailways } from './paperclip-railways/index.ts';
import { airlines } from './airlines/index.ts';
import { airlinesEurope } from './airlines-europe/index.ts';
import { game1830 } from './1830/index.ts';

export const games: AnyRules[] = [stephensonsRocket, airlines, airlinesEurope, paperclipRailways, game1830];

export function findRules(id: string, registry: AnyRules[] = games): AnyRules | undefined {
  return registry.find((r) => r.id === id);
}
