// Mail rendering: handlebars templates under templates/mail/ (a shared layout,
// an HTML and a plain-text body per kind of mail), the game's own partials
// templates/games/<id>/view.hbs and view.txt.hbs where a game ships them, a
// generic summary of the view where it does not, and the board as an inline PNG.
import Handlebars from 'handlebars';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { View } from '../../rules/types.ts';
import { TEMPLATES_DIR as DEFAULT_TEMPLATES_DIR } from '../paths.ts';
import { gameTemplate, registerHelpers, summariseView, type PlayerRef } from '../render.ts';
import { svgToPng } from './snapshot.ts';

export type { PlayerRef };

export const MAIL_KINDS = [
  'turn',
  'invite',
  'started',
  'reopened',
  'undone',
  'reminder',
  'escalation',
  'digest',
  'over',
  'automoved',
  'created',
  'abandoned',
  'answer',
  'talk',
  'welcome',
  'seated',
  'removed',
  'mygames',
  'attention',
  'orderEnded',
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

export { DEFAULT_TEMPLATES_DIR };

export interface QuickLink {
  label: string;
  url: string;
}

export interface HistoryLine {
  seq: number;
  text: string;
}

/** Everything a mail template may use. Kinds fill in the parts they need. */
export interface MailContext {
  kind: MailKind;
  game: { id: string; title: string; seq: number; name?: string };
  players: PlayerRef[];
  /** The recipient's seat, null for somebody without one (an invitee). */
  you: number | null;
  recipientName: string;
  /** The view for `you` (spectator view for null); shown through the game's partial. */
  view?: View;
  /** The SVG of that view, if the game draws one; becomes cid:board. */
  svg?: string;
  /** A close-up of what changed since the seat's last turn (turn mail); becomes cid:closeup. */
  closeUpSvg?: string;
  links: {
    play?: string;
    prefs?: string;
    unsubscribe?: string;
    history?: string;
    invite?: string;
    [name: string]: string | undefined;
  };
  quickMoves?: QuickLink[];
  /** How many further moves exist beyond the quick links (shown as "more on your page"). */
  moreMoves?: number;
  history?: HistoryLine[];
  /** Names of the seats the game waits for. */
  waitingFor?: string[];
  /** Free, kind-specific fields (reminder number, scores, digest games...). */
  [key: string]: unknown;
}

export interface RenderedMail {
  html: string;
  text: string;
  /** The board PNG, when the game has an SVG and it rendered. */
  png?: Buffer;
  /** The close-up PNG (turn mail), when there is one and it rendered. */
  closeUpPng?: Buffer;
}

type HB = typeof Handlebars;

export class MailRenderer {
  private readonly hb: HB;
  private readonly hbText: HB;
  private readonly cache = new Map<string, Handlebars.TemplateDelegate>();
  private readonly gamePartials = new Map<
    string,
    { html: Handlebars.TemplateDelegate | null; text: Handlebars.TemplateDelegate | null }
  >();

  /**
   * `draw` turns an SVG into the PNG a mail carries; `route` names the game, so that a pool of
   * picture workers (picture-pool.ts) sends one game's pictures to one worker. Default: drawn here.
   */
  constructor(
    private readonly templatesDir: string = DEFAULT_TEMPLATES_DIR,
    private readonly draw: (svg: string, opts: { cache?: boolean }, route: string) => Promise<Buffer> = (svg, opts) =>
      svgToPng(svg, opts),
  ) {
    this.hb = Handlebars.create();
    this.hbText = Handlebars.create();
    registerHelpers(this.hb);
    registerHelpers(this.hbText);
    // Shared pieces of mail bodies: templates/mail/partials/<name>.html.hbs and .txt.hbs,
    // used as {{> name-html}} and {{> name-txt}}.
    const partials = join(templatesDir, 'mail', 'partials');
    if (existsSync(partials)) {
      for (const f of readdirSync(partials)) {
        const m = /^(.+)\.(html|txt)\.hbs$/.exec(f);
        if (!m) continue;
        (m[2] === 'txt' ? this.hbText : this.hb).registerPartial(
          `${m[1]}-${m[2]}`,
          readFileSync(join(partials, f), 'utf8'),
        );
      }
    }
  }

  private compile(name: string, text: boolean): Handlebars.TemplateDelegate {
    const cacheKey = `${text ? 't' : 'h'}:${name}`;
    let tpl = this.cache.get(cacheKey);
    if (!tpl) {
      const src = readFileSync(join(this.templatesDir, 'mail', name), 'utf8');
      tpl = (text ? this.hbText : this.hb).compile(src, { noEscape: text, strict: false });
      this.cache.set(cacheKey, tpl);
    }
    return tpl;
  }

  private gamePartial(rulesId: string) {
    let p = this.gamePartials.get(rulesId);
    if (!p) {
      p = {
        html: gameTemplate(this.templatesDir, rulesId, 'view.hbs', this.hb, false),
        text: gameTemplate(this.templatesDir, rulesId, 'view.txt.hbs', this.hbText, true),
      };
      this.gamePartials.set(rulesId, p);
    }
    return p;
  }

  /** Renders one mail: body inside the shared layout, HTML and text, plus the board PNG. */
  async render(ctx: MailContext, rulesId: string | null, opts: { pngCache?: boolean } = {}): Promise<RenderedMail> {
    // The picture is drawn elsewhere (a worker, or resvg on libuv's pool) while the templates run here.
    const route = ctx.game?.id ?? '';
    const drawing = ctx.svg ? this.draw(ctx.svg, { cache: opts.pngCache }, route).catch(() => undefined) : undefined;
    // The close-up is drawn afresh each time (no cache: it is a different crop every turn).
    const closeUp = ctx.closeUpSvg
      ? await this.draw(ctx.closeUpSvg, { cache: false }, route).catch(() => undefined)
      : undefined;
    const withBoard = this.texts(ctx, rulesId, Boolean(drawing), Boolean(closeUp));
    const png = await drawing;
    // A broken picture never stops the mail: it goes without one.
    return {
      ...(png || !drawing ? withBoard : this.texts(ctx, rulesId, false, Boolean(closeUp))),
      png,
      closeUpPng: closeUp,
    };
  }

  private texts(
    ctx: MailContext,
    rulesId: string | null,
    hasBoard: boolean,
    hasCloseUp = false,
  ): { html: string; text: string } {
    const full: Record<string, unknown> = { ...ctx, hasBoard, hasCloseUp };
    if (ctx.view) {
      const partial = rulesId ? this.gamePartial(rulesId) : { html: null, text: null };
      const partialCtx = { view: ctx.view, players: ctx.players, you: ctx.you, game: ctx.game };
      full.summary = summariseView(ctx.view, ctx.players);
      full.gameHtml = partial.html ? new Handlebars.SafeString(safePartial(partial.html, partialCtx)) : null;
      full.gameText = partial.text ? safePartial(partial.text, partialCtx) : null;
    }
    const bodyHtml = this.compile(`${ctx.kind}.html.hbs`, false)(full);
    const bodyText = this.compile(`${ctx.kind}.txt.hbs`, true)(full);
    const html = this.compile('layout.html.hbs', false)({ ...full, body: new Handlebars.SafeString(bodyHtml) });
    const text = this.compile('layout.txt.hbs', true)({ ...full, body: bodyText });
    return { html, text: tidyText(text) };
  }
}

function safePartial(tpl: Handlebars.TemplateDelegate, ctx: unknown): string {
  try {
    return tpl(ctx);
  } catch (err) {
    return `(this game's summary could not be shown: ${String((err as Error).message).slice(0, 100)})`;
  }
}

/** Collapses the blank lines handlebars leaves behind in plain text. */
function tidyText(s: string): string {
  return `${s
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}
