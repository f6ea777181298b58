// Hand-set 1830 positions shared by the rule suites.
import { game1830 as g, type Game1830State } from '../../../rules/1830/index';

/** Four players; every private bought at face in seat order; B&O parred at 100 by seat 1; SR 1 begins. */
export function afterAuction(seed = 'stock'): Game1830State {
  const s = g.setup(4, seed, {});
  for (const [seat, sym, price] of [[0, 'SV', 20], [1, 'CS', 40], [2, 'DH', 70], [3, 'MH', 110], [0, 'CA', 160], [1, 'BO', 220]] as const) {
    g.apply(s, seat, { type: 'bid', company: sym, price });
  }
  g.apply(s, 1, { type: 'par', corp: 'B&O', price: 100 });
  return s;
}
