// Page rendering: handlebars templates under templates/ (layout.hbs, pages/,
// partials/) and each game's own partials from templates/games/<id>/:
//   view.hbs      the view as HTML   context { view, players, you, game: { id, title, seq } }
//   view.txt.hbs  the view as text   (same context)
//   form.hbs      a richer move form context adds { moveUrl, seq, moves, cspNonce }
// A game without view.hbs gets a generic summary of its view.
// Helpers: eq ne lt gt add sub json join inc playerName money.
import Handlebars from 'handlebars';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { View } from '../rules/types.ts';
import { TEMPLATES_DIR } from './paths.ts';

export { TEMPLATES_DIR, WEB_DIR } from './paths.ts';

type HB = typeof Handlebars;

export interface PlayerRef {
  seat: number;
  name: string;
}

export function registerHelpers(hb: HB): void {
  hb.registerHelper('eq', (a: unknown, b: unknown) => a === b);
  hb.registerHelper('ne', (a: unknown, b: unknown) => a !== b);
  hb.registerHelper('lt', (a: number, b: number) => a < b);
  hb.registerHelper('gt', (a: number, b: number) => a > b);
  hb.registerHelper('add', (a: number, b: number) => Number(a) + Number(b));
  hb.registerHelper('sub', (a: number, b: number) => Number(a) - Number(b));
  hb.registerHelper('inc', (a: number) => Number(a) + 1);
  hb.registerHelper('json', (v: unknown) => JSON.stringify(v));
  hb.registerHelper('join', (v: unknown, sep: unknown) =>
    Array.isArray(v) ? v.join(typeof sep === 'string' ? sep : ', ') : '',
  );
  hb.registerHelper('money', (v: unknown) =>
    typeof v === 'number' ? `$${v.toLocaleString('en-US')}` : String(v ?? ''),
  );
  hb.registerHelper('playerName', function (this: unknown, seat: unknown, options: Handlebars.HelperOptions) {
    const players = (options?.data?.root as { players?: PlayerRef[] } | undefined)?.players ?? [];
    const p = players.find((x) => x.seat === seat);
    return p ? p.name : typeof seat === 'number' ? `Seat ${seat + 1}` : '';
  });
  // Words a game's state keeps with players numbered from 1 ("seat 2 $3,000", written before the
  // rules named players {seat:N}), with the players' names.
  hb.registerHelper('seatsNamed', function (this: unknown, text: unknown, options: Handlebars.HelperOptions) {
    const players = (options?.data?.root as { players?: PlayerRef[] } | undefined)?.players ?? [];
    return String(text ?? '').replace(
      /\bseat (\d+)\b/g,
      (whole, n: string) => players.find((x) => x.seat === Number(n) - 1)?.name ?? whole,
    );
  });
}

/** A readable summary of any view (label and text per field), for games without their own partial; pages and mail share it. */
export function summariseView(view: View, players: PlayerRef[]): { label: string; value: string }[] {
  const skip = new Set(['seat', 'toAct', 'status']);
  const out: { label: string; value: string }[] = [];
  for (const [key, value] of Object.entries(view)) {
    if (skip.has(key) || value === undefined) continue;
    const label = key.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());
    out.push({ label, value: formatValue(value, perSeat(key, value, players) ? players : []) });
  }
  return out;
}

/** A per-seat array (piles, hand sizes, stakes) as opposed to a list (a hand of three cards in a three-seat game). */
function perSeat(key: string, value: unknown, players: PlayerRef[]): boolean {
  if (!Array.isArray(value) || players.length < 2 || value.length !== players.length) return false;
  return /s$/.test(key) || value.some((v) => v === null || Array.isArray(v));
}

function formatValue(value: unknown, players: PlayerRef[]): string {
  if (value === null) return '—';
  if (
    Array.isArray(value) &&
    value.length === players.length &&
    players.length > 1 &&
    value.every((v) => typeof v !== 'object' || v === null || Array.isArray(v))
  ) {
    // Per-seat arrays (hand sizes, piles, money): name them.
    return value.map((v, i) => `${players[i]?.name ?? `Seat ${i + 1}`}: ${formatValue(v, [])}`).join('; ');
  }
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map((v) => formatValue(v, [])).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

interface GameParts {
  view: Handlebars.TemplateDelegate | null;
  text: Handlebars.TemplateDelegate | null;
  form: Handlebars.TemplateDelegate | null;
}

/**
 * A game's own template templates/games/<rulesId>/<file>, compiled with `hb`;
 * null when the game ships none (or the id is not a plain folder name).
 */
export function gameTemplate(
  templatesDir: string,
  rulesId: string,
  file: string,
  hb: HB,
  noEscape: boolean,
): Handlebars.TemplateDelegate | null {
  const path = join(templatesDir, 'games', rulesId, file);
  if (!/^[a-z0-9-]+$/.test(rulesId) || !existsSync(path)) return null;
  return hb.compile(readFileSync(path, 'utf8'), { noEscape });
}

export class PageRenderer {
  readonly hb: HB;
  private readonly textHb: HB;
  private pages = new Map<string, Handlebars.TemplateDelegate>();
  private games = new Map<string, GameParts>();

  constructor(private readonly dir: string = TEMPLATES_DIR) {
    this.hb = Handlebars.create();
    this.textHb = Handlebars.create();
    registerHelpers(this.hb);
    registerHelpers(this.textHb);
    const partials = join(dir, 'partials');
    if (existsSync(partials)) {
      for (const f of readdirSync(partials).filter((x) => x.endsWith('.hbs'))) {
        this.hb.registerPartial(f.slice(0, -4), readFileSync(join(partials, f), 'utf8'));
      }
    }
  }

  /** A page from templates/pages/<name>.hbs inside templates/layout.hbs. */
  page(name: string, ctx: Record<string, unknown>): string {
    const body = this.template(`pages/${name}.hbs`)(ctx);
    return this.template('layout.hbs')({ ...ctx, body: new Handlebars.SafeString(body) });
  }

  private template(rel: string): Handlebars.TemplateDelegate {
    let t = this.pages.get(rel);
    if (!t) {
      t = this.hb.compile(readFileSync(join(this.dir, rel), 'utf8'), { strict: false });
      this.pages.set(rel, t);
    }
    return t;
  }

  private parts(rulesId: string): GameParts {
    let p = this.games.get(rulesId);
    if (!p) {
      p = {
        view: gameTemplate(this.dir, rulesId, 'view.hbs', this.hb, false),
        text: gameTemplate(this.dir, rulesId, 'view.txt.hbs', this.textHb, true),
        form: gameTemplate(this.dir, rulesId, 'form.hbs', this.hb, false),
      };
      this.games.set(rulesId, p);
    }
    return p;
  }

  hasForm(rulesId: string): boolean {
    return this.parts(rulesId).form !== null;
  }

  /** The game's view partial as HTML (null when the game has none: use summariseView). */
  gameView(rulesId: string, ctx: Record<string, unknown>, nonce?: string): string | null {
    return this.run(this.parts(rulesId).view, ctx, nonce);
  }

  gameViewText(rulesId: string, ctx: Record<string, unknown>): string | null {
    return this.run(this.parts(rulesId).text, ctx);
  }

  gameForm(rulesId: string, ctx: Record<string, unknown>, nonce?: string): string | null {
    return this.run(this.parts(rulesId).form, ctx, nonce);
  }

  private run(tpl: Handlebars.TemplateDelegate | null, ctx: Record<string, unknown>, nonce?: string): string | null {
    if (!tpl) return null;
    let html: string;
    try {
      html = tpl(ctx);
    } catch (err) {
      return `<p class="problem">This part of the page could not be drawn (${Handlebars.escapeExpression(String((err as Error).message).slice(0, 120))}).</p>`;
    }
    // Game partials are our own templates; user text inside is escaped, so any
    // <script> tag here comes from the template and gets the page's CSP nonce.
    return nonce ? html.replace(/<script(?=[\s>])/g, `<script nonce="${nonce}"`) : html;
  }
}
