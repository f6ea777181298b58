// The two real 1830 games from 18xx.games, replayed on the map module only:
// tiles and station tokens in order (undo/redo resolved as 18xx.games does),
// with the checkpoint after every action, and the board at every run_routes.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  newBoard,
  layTile,
  placeToken,
  placeHomeToken,
  placePendingToken,
  hasHomeToken,
  homeTokenChoices,
  layTileFrom18xx,
  placeTokenFrom18xx,
  type Board,
  type PhaseName,
} from '../../../../rules/1830/track/index.ts';
import { resolveUndo, type Raw18xxAction } from '../../../../rules/1830/import/resolve.ts';

const here = dirname(fileURLToPath(import.meta.url));
/** The real games are kept in the repository (test/fixtures/18xx.games, MIT data from 18xx.games). */
export const FIXTURES = resolve(here, '../../../fixtures/18xx.games/1830');
export const GAMES = ['1830_game_end_bank', '29133'];

type Action = Record<string, any>;

/** The actions that count after undo/redo, resolved as the importer does (one resolver for both). */
export function effectiveActions(actions: Action[]): Action[] {
  return resolveUndo(actions as Raw18xxAction[]);
}

export interface RealGame {
  name: string;
  actions: Action[];
  checkpoints: Map<number, Action>;
  /** Checkpoint lines in file order. */
  lines: Action[];
}

export function loadGame(name: string): RealGame {
  const data = JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8'));
  const lines = readFileSync(join(FIXTURES, 'checkpoints', `${name}.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const checkpoints = new Map<number, Action>();
  for (const l of lines) checkpoints.set(l.after_action, l);
  return { name, actions: effectiveActions(data.actions), checkpoints, lines };
}

export interface Step {
  action: Action;
  board: Board;
  /** Checkpoint before and after the action. */
  before: Action | null;
  after: Action;
  phase: PhaseName;
}

const PRIVATES = ['SV', 'CS', 'DH', 'MH', 'CA', 'BO'];

/** Who owns which private at a checkpoint: corporation sym, or null for a player. */
function privateOwner(cp: Action | null, sym: string): string | null {
  for (const c of cp?.corporations ?? []) if ((c.companies ?? []).includes(sym)) return c.name;
  return null;
}

function playerPrivates(cp: Action | null): string[] {
  const out: string[] = [];
  for (const p of cp?.players ?? []) for (const s of p.companies ?? []) if (PRIVATES.includes(s)) out.push(s);
  return out;
}

/**
 * Replays tiles and tokens; calls `visit` after every action with the board
 * (for run_routes: the board the route ran on). Home stations are placed when
 * the checkpoint first shows them (18xx.games places them as the corporation
 * starts its first turn), or by the corporation's own choice (Erie).
 */
export function replayBoard(game: RealGame, visit: (s: Step) => void): Board {
  const board = newBoard();
  let before: Action | null = null;
  for (const action of game.actions) {
    const after = game.checkpoints.get(action.id)!;
    const phase = (before?.phase ?? '2') as PhaseName;
    const isCompany = action.entity_type === 'company';
    const corp: string = isCompany ? (privateOwner(before, action.entity) ?? action.entity) : action.entity;
    if (action.type === 'lay_tile') {
      layTile(
        board,
        {
          corp,
          phase,
          layUsed: false,
          playerPrivates: playerPrivates(before),
          via: isCompany ? action.entity : undefined,
        },
        layTileFrom18xx(action as any),
      );
    } else if (action.type === 'place_token') {
      const place = placeTokenFrom18xx(board, action as any);
      const owner: string = action.tokener ?? corp;
      if (board.pending.some((p) => p.corp === owner && p.hex === place.hex)) placePendingToken(board, owner, place);
      else if (!hasHomeToken(board, owner)) placeHomeToken(board, owner, place.city);
      else placeToken(board, { corp: owner, tokensLeft: 9, via: isCompany ? 'DH' : undefined }, place);
    }
    // home stations the engine placed on its own
    for (const c of after.corporations ?? []) {
      if (hasHomeToken(board, c.name)) continue;
      const home = board.homes[c.name];
      if (home && (c.tokens ?? []).includes(home.hex) && homeTokenChoices(board, c.name).length === 1)
        placeHomeToken(board, c.name);
    }
    visit({ action, board, before, after, phase });
    before = after;
  }
  return board;
}

/** Our board as the checkpoint writes it: tiles "hex" -> "tile/rotation", tokens corp -> sorted hexes. */
export function boardSummary(board: Board): { tiles: Record<string, string>; tokens: Record<string, string[]> } {
  const tiles: Record<string, string> = {};
  for (const [hex, t] of Object.entries(board.tiles)) tiles[hex] = `${t.tile}/${t.rotation}`;
  const tokens: Record<string, string[]> = {};
  for (const [hex, cities] of Object.entries(board.tokens))
    for (const c of cities) for (const corp of c) (tokens[corp] ??= []).push(hex);
  for (const hexes of Object.values(tokens)) hexes.sort();
  return { tiles, tokens };
}

export function checkpointSummary(cp: Action): { tiles: Record<string, string>; tokens: Record<string, string[]> } {
  const tokens: Record<string, string[]> = {};
  for (const c of cp.corporations ?? []) if ((c.tokens ?? []).length) tokens[c.name] = [...c.tokens].sort();
  return { tiles: { ...(cp.tiles ?? {}) }, tokens };
}

const TRAIN_ORDER = ['2', '3', '4', '5', '6', 'D'];
const RUSTS: Record<string, string> = { '4': '2', '6': '3', D: '4' };

export interface OpenStep {
  action: Action;
  board: Board;
  phase: PhaseName;
  /** Trains each corporation holds before the action (ids like "3-1"). */
  trains: Record<string, string[]>;
}

/**
 * Replays an export that has no checkpoints: the phase follows the trains
 * bought, privates close as 1830 says (all at the first 5, the BO when B&O
 * buys a train, the MH when exchanged), a corporation places its home station
 * when it first acts in an operating round.
 */
export function replayOpenGame(actions: Action[], visit: (s: OpenStep) => void): Board {
  const board = newBoard();
  let phase: PhaseName = '2';
  const corpOwned: Record<string, string> = {};
  const closed = new Set<string>();
  const trains: Record<string, string[]> = {};
  for (const a of effectiveActions(actions)) {
    const company = a.entity_type === 'company';
    if (
      a.entity_type === 'corporation' &&
      !hasHomeToken(board, a.entity) &&
      homeTokenChoices(board, a.entity).length === 1
    ) {
      placeHomeToken(board, a.entity);
    }
    const playerPrivates = PRIVATES.filter((p) => !corpOwned[p] && !closed.has(p));
    visit({ action: a, board, phase, trains });
    if (a.type === 'buy_company') corpOwned[a.company] = a.entity;
    if (a.type === 'buy_shares' && company && a.entity === 'MH') closed.add('MH');
    if (a.type === 'buy_train') {
      const name = String(a.train).replace(/-.*/, '');
      if (TRAIN_ORDER.indexOf(name) > TRAIN_ORDER.indexOf(phase)) phase = name as PhaseName;
      if (TRAIN_ORDER.indexOf(phase) >= 3) for (const p of PRIVATES) closed.add(p);
      if (a.entity === 'B&O') closed.add('BO');
      for (const [c, held] of Object.entries(trains)) trains[c] = held.filter((t) => t !== a.train);
      (trains[a.entity] ??= []).push(a.train);
      const rust = RUSTS[name];
      if (rust)
        for (const [c, held] of Object.entries(trains)) trains[c] = held.filter((t) => !t.startsWith(`${rust}-`));
    }
    if (a.type === 'discard_train') trains[a.entity] = (trains[a.entity] ?? []).filter((t) => t !== a.train);
    if (a.type === 'lay_tile') {
      const corp = company ? corpOwned[a.entity] : a.entity;
      layTile(
        board,
        { corp, phase, layUsed: false, playerPrivates, via: company ? a.entity : undefined },
        layTileFrom18xx(a as any),
      );
    }
    if (a.type === 'place_token') {
      const place = placeTokenFrom18xx(board, a as any);
      const owner: string = a.tokener ?? (company ? corpOwned[a.entity] : a.entity);
      if (board.pending.some((p) => p.corp === owner && p.hex === place.hex)) placePendingToken(board, owner, place);
      else if (!hasHomeToken(board, owner)) placeHomeToken(board, owner, place.city);
      else placeToken(board, { corp: owner, tokensLeft: 9, via: company ? 'DH' : undefined }, place);
    }
  }
  return board;
}
