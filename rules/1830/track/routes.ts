// Routes: checking the routes a corporation runs and computing their revenue.
import { RuleError } from '../../types';
import type { Board, PhaseName, RouteInput, RunResult, TrainInput } from './types';

export function runRoutes(_board: Board, _corp: string, _phase: PhaseName, _trains: TrainInput[], _routes: RouteInput[]): RunResult {
  throw new RuleError('not implemented yet');
}
