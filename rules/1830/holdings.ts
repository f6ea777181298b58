// The seat's card in the turn mail's close-up (rules/picture.ts drawCard): its cash and worth,
// its shares at their prices, the corporations it runs, its privates; then everyone's worth.
import type { View } from '../types.ts';
import { cardStart, type CardRow } from '../picture.ts';

interface Player {
  seat: number;
  cash: number;
  value: number;
  certs: number;
  priority: boolean;
  shares: Record<string, number>;
  presidencies: string[];
  privates: string[];
}
interface Corp {
  sym: string;
  color: string;
  textColor: string;
  price: number | null;
  cash: number;
  trains: string[];
  tokensLeft: number;
  floated: boolean;
  closed: boolean;
}
interface Private {
  sym: string;
  name: string;
  revenue: number;
}

export function holdings1830(view: View): CardRow[] {
  const players = (view.players ?? []) as Player[];
  const corps = (view.corporations ?? []) as Corp[];
  const privates = (view.privates ?? []) as Private[];
  const corp = (sym: string) => corps.find((c) => c.sym === sym);
  const { rows, me } = cardStart(view, players);
  if (me) {
    rows.push({
      label: 'You',
      text: `$${me.cash} cash, worth $${me.value}; ${me.certs} of ${String(view.certLimit)} certificates${me.priority ? '; you have the priority deal' : ''}`,
    });
    const shares = Object.entries(me.shares);
    rows.push({
      label: 'Your shares',
      ...(shares.length
        ? {
            chips: shares.map(([sym, pc]) => {
              const c = corp(sym);
              const price = c?.price ? ` $${c.price}` : '';
              return {
                text: `${sym} ${pc}%${price}${me.presidencies.includes(sym) ? ' pres.' : ''}`,
                fill: c?.color ?? '#dddddd',
                ...(c ? { ink: c.textColor } : {}),
              };
            }),
          }
        : { text: 'none' }),
    });
    for (const sym of me.presidencies) {
      const c = corp(sym);
      if (!c || c.closed) continue;
      rows.push({
        label: `${sym}, yours to run`,
        text: `treasury $${c.cash}, trains ${c.trains.length ? c.trains.join(', ') : 'none'}, ${c.tokensLeft} station${c.tokensLeft === 1 ? '' : 's'} left`,
      });
    }
    if (me.privates.length)
      rows.push({
        label: 'Your privates',
        text: me.privates
          .map((sym) => {
            const p = privates.find((x) => x.sym === sym);
            return p ? `${p.name} ($${p.revenue} a round)` : sym;
          })
          .join(', '),
      });
  }
  rows.push({
    label: 'Worth',
    text: [...players]
      .sort((a, b) => b.value - a.value)
      .map((p) => `{seat:${p.seat}} $${p.value}`)
      .join(', '),
  });
  return rows;
}
