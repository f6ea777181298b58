// The best routes for all of a corporation's trains together.
import type { Board, PhaseName, Suggestion, TrainInput } from './types';

export function suggestRoutes(_board: Board, _corp: string, _phase: PhaseName, _trains: TrainInput[]): Suggestion {
  return { revenue: 0, routes: [], details: [] };
}
