// The seat's card in the turn mail's close-up (rules/picture.ts drawCard): its colour, score,
// clips and cubes, the cards in its hand; everyone's score.
import type { View } from '../types.ts';
import { cardStart, type CardRow } from '../picture.ts';
import { TYPE_FILL } from './view.ts';

interface Player {
  seat: number;
  colour: string;
  score: number;
  clips: number;
  cubes: number;
  handSize: number;
}
interface Card {
  name: string;
  type: string;
  points: number;
}

export function holdingsPaperclip(view: View): CardRow[] {
  const players = (view.players ?? []) as Player[];
  const { rows, me } = cardStart(view, players);
  if (me) {
    rows.push({
      label: `You (${me.colour})`,
      text: `${me.score} points, ${me.clips} clips, ${me.cubes} cubes`,
    });
    const hand = (view.hand ?? null) as Card[] | null;
    if (hand)
      rows.push({
        label: 'Your hand',
        ...(hand.length
          ? { chips: hand.map((c) => ({ text: `${c.name} ${c.points}`, fill: TYPE_FILL[c.type] ?? '#ffffff' })) }
          : { text: 'empty' }),
      });
  }
  rows.push({
    label: 'Scores',
    text: [...players]
      .sort((a, b) => b.score - a.score)
      .map((p) => `{seat:${p.seat}} (${p.colour}) ${p.score}`)
      .join(', '),
  });
  return rows;
}
