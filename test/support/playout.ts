// Random playouts through the public rules contract, shared by the contract
// suite, game suites and the bench.
import type { AnyRules, Options, Seat } from '../../rules/types.ts';
import { randomInt, seedRandom } from '../../rules/random.ts';

export interface PlayoutResult {
  state: any;
  actions: { seat: Seat; action: unknown }[];
  steps: number;
}

export interface PlayoutOptions {
  options?: Options;
  maxSteps?: number;
  /** Called after every applied action (for invariants). */
  afterMove?: (state: any, seat: Seat, action: unknown) => void;
}

export function defaultOptions(rules: AnyRules): Options {
  const out: Options = {};
  for (const o of rules.options ?? []) out[o.id] = o.default;
  return out;
}

/**
 * A position `steps` random moves into a game (fewer if it ends first), from
 * seed `seed` and a picker seeded `pickerSeed`: a fuller board for pictures.
 */
export function positionAfter(
  rules: AnyRules,
  seats: number,
  steps: number,
  seed: string,
  pickerSeed = `${seed}-picker`,
): any {
  return positionsAfter(rules, seats, [steps], seed, pickerSeed)[0];
}

/**
 * The positions `steps` random moves into one game (each as positionAfter gives it), from one
 * playout: a copy is kept at each step asked for.
 */
export function positionsAfter(
  rules: AnyRules,
  seats: number,
  steps: readonly number[],
  seed: string,
  pickerSeed = `${seed}-picker`,
): any[] {
  const state = rules.setup(seats, seed, defaultOptions(rules));
  const picker = seedRandom(pickerSeed);
  const last = Math.max(...steps);
  const at = new Map<number, any>();
  for (let i = 0; ; i++) {
    if (steps.includes(i)) at.set(i, structuredClone(state));
    if (i >= last) break;
    const toAct = rules.toAct(state);
    if (toAct.length === 0) break;
    const seat = toAct[randomInt(picker, toAct.length)]!;
    const moves = rules.moves(state, seat);
    if (moves.length === 0) break;
    rules.apply(state, seat, structuredClone(moves[randomInt(picker, moves.length)]));
  }
  // A game that ended first: the steps beyond its end see its last position.
  return steps.map((n) => at.get(n) ?? structuredClone(state));
}

/** Picks one of `moves` (never empty) for `seat`; `picker` is the playout's seeded generator. */
export type ChooseMove = (state: any, seat: Seat, moves: unknown[], picker: ReturnType<typeof seedRandom>) => unknown;

/**
 * Plays one game to the end, `choose` picking each move (the seat to act drawn at random
 * among those who must); throws if a seat that must act has no move or the game does not end.
 */
export function playout(
  rules: AnyRules,
  seats: number,
  seed: string,
  opts: PlayoutOptions & { pickerSeed: string; choose: ChooseMove },
): PlayoutResult {
  const state = rules.setup(seats, seed, opts.options ?? defaultOptions(rules));
  const picker = seedRandom(opts.pickerSeed);
  const actions: PlayoutResult['actions'] = [];
  const maxSteps = opts.maxSteps ?? 20_000;
  for (let step = 0; step < maxSteps; step++) {
    const toAct = rules.toAct(state);
    if (toAct.length === 0) return { state, actions, steps: step };
    const seat = toAct[randomInt(picker, toAct.length)]!;
    const moves = rules.moves(state, seat);
    if (moves.length === 0)
      throw new Error(`${rules.id}: no moves for seat ${seat} who must act (seed ${seed}, step ${step})`);
    const action = opts.choose(state, seat, moves, picker);
    rules.apply(state, seat, structuredClone(action));
    actions.push({ seat, action });
    opts.afterMove?.(state, seat, action);
  }
  throw new Error(`${rules.id}: no end after ${maxSteps} moves (seed ${seed})`);
}

/** Plays one game to the end picking uniformly among `moves`; throws if it does not end. */
export function randomPlayout(rules: AnyRules, seats: number, seed: string, opts: PlayoutOptions = {}): PlayoutResult {
  return playout(rules, seats, seed, {
    ...opts,
    pickerSeed: `picker:${seed}`,
    choose: (_state, _seat, moves, picker) => moves[randomInt(picker, moves.length)],
  });
}
