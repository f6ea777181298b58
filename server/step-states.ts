// States of a game after earlier entries, for the step pages, without playing
// the whole game from the seed on every request. Per game a few states are
// kept: one every CHECKPOINT_EVERY moves of the replay that made them, and the
// last one asked for (the next step is one move on from it). A state after
// entry s is built from the kept state with the most moves in force that are
// still in force at s: moves in force form a stack (an undo pops the top), so
// a kept state is usable exactly when its top move is still at the same place
// in the stack at s. Kept states are never changed: a step page only reads.
import type { AnyRules, Opaque } from '../rules/types.ts';
import { effectiveMoves } from './game-log.ts';
import type { GameDoc } from './store/types.ts';

const CHECKPOINT_EVERY = 25;
/** Games whose states are kept (the ones stepped through most recently). */
const GAMES_KEPT = 16;

interface Kept {
  /** Moves in force in this state. */
  count: number;
  /** Seq of the top one (0 for the state right after setup). */
  topSeq: number;
  state: Opaque;
}

export class StepStates {
  private games = new Map<string, Kept[]>();

  /** The rules state after log entry `upto`; null if the game had not started by then. */
  stateAt(doc: GameDoc, rules: AnyRules, upto: number): Opaque | null {
    const start = doc.log.find((e) => e.kind === 'start');
    if (!start || start.seq > upto) return null;
    const moves = effectiveMoves(doc.log, upto);
    const kept = this.games.get(doc.id) ?? [];
    this.games.delete(doc.id);
    this.games.set(doc.id, kept);
    if (this.games.size > GAMES_KEPT) this.games.delete(this.games.keys().next().value!);

    let from: Kept | undefined;
    for (const k of kept) {
      const usable = k.count === 0 || (k.count <= moves.length && moves[k.count - 1]!.seq === k.topSeq);
      if (usable && (!from || k.count > from.count)) from = k;
    }
    if (!from) {
      const seats = (start.data?.order as number[] | undefined)?.length ?? doc.seats.length;
      from = { count: 0, topSeq: 0, state: rules.setup(seats, doc.seed, doc.options) };
      kept.push(from);
    }
    if (from.count === moves.length) return from.state;
    const state = structuredClone(from.state);
    for (let i = from.count; i < moves.length; i++) {
      const e = moves[i]!;
      rules.apply(state, e.seat!, structuredClone(e.action));
      if ((i + 1) % CHECKPOINT_EVERY === 0 && i + 1 < moves.length)
        this.keep(kept, { count: i + 1, topSeq: e.seq, state: structuredClone(state) });
    }
    this.keep(kept, { count: moves.length, topSeq: moves[moves.length - 1]!.seq, state });
    return state;
  }

  private keep(kept: Kept[], k: Kept): void {
    if (kept.some((x) => x.count === k.count && x.topSeq === k.topSeq)) return;
    kept.push(k);
    // The checkpoints stay; of the states kept for the last page asked, the newest few.
    const extra = kept.filter((x) => x.count % CHECKPOINT_EVERY !== 0);
    if (extra.length > 4) kept.splice(kept.indexOf(extra[0]!), 1);
  }
}
