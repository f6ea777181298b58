// The end of the game: when it comes, and the final scoring.
import { board, GOODS } from './board.ts';
import { formatMoney, majorityPayout, pay, payeeList, roundDown, stationCounts } from './scoring.ts';
import { sharesOnOffer, TRACK_TILES, type SRState } from './state.ts';

/** Cities joined to some running (or isolated) line. */
export function connectedCities(s: SRState): Set<number> {
  const out = new Set<number>();
  for (const l of s.lines) if (l.absorbedInto < 0) for (const p of l.connected) out.add(p);
  return out;
}

/** Checked after every action; ends and scores the game when due. Returns true if it ended. */
export function checkEnd(s: SRState, events: string[] | undefined): boolean {
  let reason = '';
  if (s.tiles.length >= TRACK_TILES) reason = `all ${TRACK_TILES} track tiles are laid`;
  else {
    const offering = s.lines.filter((_, i) => sharesOnOffer(s, i) > 0).length;
    if (offering <= 1) reason = offering === 1 ? 'only one line still has shares' : 'no line has shares left';
  }
  if (!reason) return false;
  s.finished = true;
  s.endReason = reason;
  s.vote = null;
  const history = finalScoring(s);
  events?.push(`Game over: ${reason}.`, ...history);
  return true;
}

/**
 * Pays one final majority. The view's list (s.finalScoring) writes "seat 1"; the
 * returned history line names the players ({seat:N}, replaced by the server).
 */
function payOut(s: SRState, amounts: number[], reason: string, history: string[]): void {
  const parts: string[] = [];
  amounts.forEach((a, seat) => {
    if (a > 0) {
      pay(s, seat, a, reason);
      parts.push(`seat ${seat + 1} ${formatMoney(a)}`);
    }
  });
  s.finalScoring.push(`${reason}: ${parts.length ? parts.join(', ') : 'nobody'}`);
  history.push(`${reason}: ${payeeList(amounts) || 'nobody'}`);
}

/** Scores the end of the game; returns its history lines. */
export function finalScoring(s: SRState): string[] {
  const history: string[] = [];
  const live = connectedCities(s);
  for (const g of GOODS) {
    const counts = s.tokens.map((ts) => ts.filter((t) => t.good === g && live.has(t.city)).length);
    payOut(s, majorityPayout(counts, 6000, 3000), `final ${g} tokens`, history);
  }
  payOut(s, majorityPayout(s.passengers, 6000, 3000), 'final passengers', history);
  s.lines.forEach((l, i) => {
    if (l.absorbedInto >= 0) return;
    const id = board.lines[i]!.id;
    const value = 1000 * l.connected.length;
    payOut(
      s,
      majorityPayout(stationCounts(s, i), value, roundDown(value / 2)),
      `final ${id} stations (${l.connected.length} towns and cities)`,
      history,
    );
    payOut(
      s,
      majorityPayout(l.held, value, roundDown(value / 2)),
      `final ${id} shares (${l.connected.length} towns and cities)`,
      history,
    );
  });
  return history;
}
