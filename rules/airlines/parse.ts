// The text commands, for people who play by typing:
//   route                                  draw a route card to extend
//   extend GLA dotted4 ORD-MSP/2 [take pile|GLA]
//   found GLA 2 dotted4 ORD-MSP/1 [take pile|GLA]
//   skip solid2 [take pile|GLA]            when no route card fits: discard one
//   stock GLA 2                            lay out stock
//   stock GLA 1 sabotage LSA DEN-DFW/3     ... and sabotage a circle
// A route card is named by pattern and value (dotted4) or id (#12).
import { RuleError } from '../types.ts';
import type { AirlinesAction } from './actions.ts';
import { board } from './board.ts';
import type { AirlinesState } from './state.ts';

const HELP =
  'Commands: "route" (draw a route card to extend), "extend GLA dotted4 ORD-MSP/2 take pile", ' +
  '"found GLA 2 dotted4 ORD-MSP/1 take GLA", "skip solid2 take pile", "stock GLA 2", "stock GLA 1 sabotage LSA DEN-DFW/3".';

function cardId(token: string | undefined, s: AirlinesState, seat: number): number {
  if (!token) throw new RuleError(`Name a route card, like dotted4 or #12. ${HELP}`);
  const byId = /^#?(\d+)$/.exec(token);
  if (byId) return Number(byId[1]);
  const m = /^([a-z-]+?)-?(\d)$/i.exec(token);
  if (!m) throw new RuleError(`"${token}" is not a route card; write it as pattern and value, like dotted4.`);
  const pattern = m[1]!.toLowerCase().replace('-', '');
  const value = Number(m[2]);
  const id = s.routes[seat]!.find((c) => {
    const card = board.cardById.get(c)!;
    return card.pattern === pattern && card.value === value;
  });
  if (id === undefined) throw new RuleError(`You hold no ${pattern} ${value} route card.`);
  return id;
}

function takeClause(rest: string[]): string {
  if (rest.length === 0) return 'pile';
  if (rest[0]!.toLowerCase() === 'take' && rest.length === 2)
    return rest[1]!.toLowerCase() === 'pile' ? 'pile' : rest[1]!.toUpperCase();
  throw new RuleError(`End the command with "take pile" or "take" and an airline code from the open row. ${HELP}`);
}

function count(token: string | undefined): number {
  if (!token || !/^\d+$/.test(token) || Number(token) < 1)
    throw new RuleError(`Say how many stock cards, like 2. ${HELP}`);
  return Number(token);
}

export function parseCommand(text: string, s: AirlinesState, seat: number): AirlinesAction {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const verb = (words[0] ?? '').toLowerCase();
  const args = words.slice(1);
  switch (verb) {
    case 'route':
    case 'draw':
      // Drawing cannot be taken back, so words it does not use are refused rather than dropped.
      if (args.length > 0)
        throw new RuleError(
          `"${verb}" takes nothing more: it draws a route card; then play one with "extend". ${HELP}`,
        );
      return { type: 'drawRoute' };
    case 'extend':
    case 'place': {
      if (args.length === 0 && s.step === 'action') return { type: 'drawRoute' };
      if (args.length < 3) throw new RuleError(`Write "extend GLA dotted4 ORD-MSP/2", optionally "take pile". ${HELP}`);
      return {
        type: 'extend',
        company: args[0]!.toUpperCase(),
        card: cardId(args[1], s, seat),
        circle: args[2]!,
        draw: takeClause(args.slice(3)),
      };
    }
    case 'found': {
      if (args.length < 4)
        throw new RuleError(`Write "found GLA 2 dotted4 ORD-MSP/1", optionally "take pile". ${HELP}`);
      return {
        type: 'found',
        company: args[0]!.toUpperCase(),
        count: count(args[1]),
        card: cardId(args[2], s, seat),
        circle: args[3]!,
        draw: takeClause(args.slice(4)),
      };
    }
    case 'skip':
    case 'pass':
    case 'discard':
      if (s.version >= 2) {
        if (args.length > 0)
          throw new RuleError('When none of your route cards fits, just write "skip": you keep your cards.');
        return { type: 'skip' };
      }
      if (args.length < 1)
        throw new RuleError(
          `Write "skip solid2" to discard a route card none of which fits, optionally "take pile". ${HELP}`,
        );
      return { type: 'skip', card: cardId(args[0]!, s, seat), draw: takeClause(args.slice(1)) };
    case 'stock':
    case 'play': {
      if (args.length < 2) throw new RuleError(`Write "stock GLA 2". ${HELP}`);
      const action: AirlinesAction = { type: 'stock', company: args[0]!.toUpperCase(), count: count(args[1]) };
      if (args.length === 2) return action;
      if (args[2]!.toLowerCase() !== 'sabotage' || args.length !== 5) {
        throw new RuleError(`Write a sabotage as "stock GLA 1 sabotage LSA DEN-DFW/3". ${HELP}`);
      }
      return { ...action, sabotage: { company: args[3]!.toUpperCase(), circle: args[4]! } };
    }
    default:
      throw new RuleError(HELP);
  }
}
