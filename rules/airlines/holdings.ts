// The seat's card in the turn mail's close-up (rules/picture.ts drawCard): its points, the stock
// it has laid out and holds in hand, its route cards; the open row; everyone's points.
import type { View } from '../types.ts';
import { cardStart, type CardRow } from '../picture.ts';

interface Company {
  code: string;
  name: string;
  colour: string;
  value: number;
}
interface Player {
  seat: number;
  points: number;
  bonus: number;
  stockInHand: number;
  routeCardsInHand: number;
  played: { code: string; colour: string; count: number }[];
}
interface Hand {
  stock: { code: string; colour: string; count: number }[];
  routes: { text: string }[];
}

export function holdingsAirlines(view: View): CardRow[] {
  const players = (view.players ?? []) as Player[];
  const companies = (view.companies ?? []) as Company[];
  const value = (code: string) => companies.find((c) => c.code === code)?.value ?? 0;
  const { rows, me } = cardStart(view, players);
  if (me) {
    rows.push({ label: 'You', text: `${me.points} points${me.bonus ? `, bonus ${me.bonus}` : ''}` });
    rows.push({
      label: 'Your stock laid out',
      ...(me.played.length
        ? { chips: me.played.map((p) => ({ text: `${p.code} ×${p.count}, value ${value(p.code)}`, fill: p.colour })) }
        : { text: 'none' }),
    });
    const hand = view.hand as Hand | null;
    if (hand) {
      rows.push({
        label: 'Your stock in hand',
        ...(hand.stock.length
          ? { chips: hand.stock.map((p) => ({ text: `${p.code} ×${p.count}`, fill: p.colour })) }
          : { text: 'none' }),
      });
      rows.push({
        label: 'Your route cards',
        text: hand.routes.length ? hand.routes.map((r) => r.text).join(', ') : 'none',
      });
    }
  }
  const open = (view.openRow ?? []) as { code: string; colour: string }[];
  if (open.length) rows.push({ label: 'Open stock', chips: open.map((o) => ({ text: o.code, fill: o.colour })) });
  rows.push({
    label: 'Points',
    text: [...players]
      .sort((a, b) => b.points - a.points)
      .map((p) => `{seat:${p.seat}} ${p.points}`)
      .join(', '),
  });
  return rows;
}
