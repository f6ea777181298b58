// The seat's card in the turn mail's close-up (rules/picture.ts drawCard): its money and points,
// its shares with their airlines' values, its hand; the market to draw from; everyone's money.
import type { View } from '../types.ts';
import { cardStart, type CardRow } from '../picture.ts';

interface Count {
  airline: string;
  name: string;
  colour: string;
  count: number;
}
interface Player {
  seat: number;
  money: number;
  handSize: number;
  portfolio: Count[];
  vp: number | null;
}
interface Airline {
  id: string;
  track: number;
  planes: number;
}

export function holdingsAE(view: View): CardRow[] {
  const players = (view.players ?? []) as Player[];
  const airlines = (view.airlines ?? []) as Airline[];
  const { rows, me } = cardStart(view, players);
  const chips = (items: Count[], withValue: boolean) =>
    items.map((c) => {
      const a = withValue ? airlines.find((x) => x.id === c.airline) : undefined;
      return { text: `${c.name} ×${c.count}${a ? `, value ${a.track}` : ''}`, fill: c.colour };
    });
  if (me) {
    rows.push({
      label: 'You',
      text: `${me.money} million${me.vp !== null ? `, ${me.vp} points` : ''}, ${me.handSize} card${me.handSize === 1 ? '' : 's'} in hand`,
    });
    rows.push({
      label: 'Your shares',
      ...(me.portfolio.length ? { chips: chips(me.portfolio, true) } : { text: 'none' }),
    });
    // (a spectator's view of the seat has no hand: it is hidden)
    const hand = view.hand as Count[] | null | undefined;
    if (hand) rows.push({ label: 'Your hand', ...(hand.length ? { chips: chips(hand, false) } : { text: 'empty' }) });
  }
  const market = (view.marketCounts ?? []) as Count[];
  if (market.length) rows.push({ label: 'Market', chips: chips(market, false) });
  rows.push({
    label: 'Money',
    text: players.map((p) => `{seat:${p.seat}} ${p.money}`).join(', '),
  });
  return rows;
}
