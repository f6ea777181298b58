// The seat's card in the turn mail's close-up (rules/picture.ts drawCard): its money (its own
// only: money is private), its shares by line, its stations and goods; everyone's shares.
import type { View } from '../types.ts';
import { cardStart, type CardRow } from '../picture.ts';
import { formatMoney } from './scoring.ts';

interface Player {
  seat: number;
  colour: string;
  tokens: Record<string, number>;
  passengers: number;
  stationsInHand: number;
  stations: string[];
  shares: Record<string, number>;
}
interface Line {
  id: string;
  name: string;
  colour: string;
  running: boolean;
}

export function holdingsRocket(view: View): CardRow[] {
  const players = (view.players ?? []) as Player[];
  const lines = (view.lines ?? []) as Line[];
  const you = view.you as { money: number } | null;
  const { rows, me } = cardStart(view, players);
  const count = (shares: Record<string, number>) => Object.values(shares).reduce((a, b) => a + b, 0);
  if (me) {
    rows.push({
      label: `You (${me.colour})`,
      text: `${you ? formatMoney(you.money) : ''}${you ? ', ' : ''}${me.stations.length} station${me.stations.length === 1 ? '' : 's'} built, ${me.stationsInHand} in hand, ${me.passengers} passenger${me.passengers === 1 ? '' : 's'}`,
    });
    const shares = Object.entries(me.shares);
    rows.push({
      label: 'Your shares',
      ...(shares.length
        ? {
            chips: shares.map(([id, n]) => {
              const l = lines.find((x) => x.id === id);
              return { text: `${l?.name ?? id} ×${n}`, fill: l?.colour ?? '#dddddd' };
            }),
          }
        : { text: 'none' }),
    });
    const goods = Object.entries(me.tokens).filter(([, n]) => n > 0);
    rows.push({ label: 'Your goods', text: goods.length ? goods.map(([g, n]) => `${g} ${n}`).join(', ') : 'none' });
  }
  rows.push({
    label: 'Shares held',
    text: players.map((p) => `{seat:${p.seat}} ${count(p.shares)}`).join(', '),
  });
  return rows;
}
