// The table as a standalone SVG (pure; generic sans-serif; no external files).
import type { View } from '../types.ts';
import { escapeMarkup as esc } from '../escape.ts';
import { boardArea, MAIL_MIN_TEXT, MAIL_WIDTH, type PictureTarget } from '../picture.ts';
import { columnName, GRID, gridOf } from './places.ts';

type P = [number, number];
interface SView {
  area: P[];
  obstacles: { kind: string; shape: P[] }[];
  river: P[] | null;
  stations: {
    id: string;
    kind: string;
    x: number;
    y: number;
    w: number;
    h: number;
    faceDown?: boolean;
    name: string;
    /** The card's colour, chosen by the view (grey face down, the player's colour for a start, else by type). */
    fill: string;
    type?: string;
    points?: number;
    limit?: number | null;
    cubes?: number[];
    owner?: number | null;
  }[];
  links: { owner: number; points: P[]; clips: number }[];
  players: { colour: string; fill: string; score: number; clips: number; cubes: number; handSize: number }[];
  advanced: boolean;
  status: string;
}

/** The frame the table is drawn in: mm to px. Shared with the form's script through the view. */
export function tableFrame(
  area: P[],
  width = 900,
): { x0: number; y0: number; scale: number; width: number; height: number } {
  const xs = area.map((p) => p[0]),
    ys = area.map((p) => p[1]);
  const x0 = Math.min(...xs) - 60,
    x1 = Math.max(...xs) + 60,
    y0 = Math.min(...ys) - 60,
    y1 = Math.max(...ys) + 60;
  const scale = width / (x1 - x0);
  return { x0, y0, scale, width, height: Math.round((y1 - y0) * scale) };
}

/**
 * The table. For a mail: MAIL_WIDTH wide, the cards' words (at least MAIL_MIN_TEXT px) written
 * above and below each card, over a halo, as they no longer fit on it.
 */
export function renderSvg(view: View, target: PictureTarget = 'page'): string {
  const v = view as unknown as SView;
  const mail = target === 'mail';
  const f = tableFrame(v.area, mail ? MAIL_WIDTH : 900);
  const halo = mail ? ' stroke="#fbf8ef" stroke-width="3" paint-order="stroke"' : '';
  const X = (x: number) => ((x - f.x0) * f.scale).toFixed(1);
  const Y = (y: number) => ((y - f.y0) * f.scale).toFixed(1);
  const pts = (ps: P[]) => ps.map((p) => `${X(p[0])},${Y(p[1])}`).join(' ');
  const out: string[] = [];
  const legendH = 24 + 20 * v.players.length;
  const H = f.height + legendH;
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${f.width}" height="${H}" viewBox="0 0 ${f.width} ${H}" font-family="sans-serif"${mail ? boardArea(0, 0, f.width, f.height) : ''}>`,
  );
  out.push(`<rect width="100%" height="100%" fill="#fbf8ef"/>`);
  // The table as laid out (area, board, obstacles, river) is public and
  // fixed: marked static for server/mail/snapshot.ts.
  out.push(`<g data-static="paperclip-railways/table/${f.width}x${H}">`);
  out.push(
    `<polygon points="${pts(v.area)}" fill="#eef3e2" stroke="#8a9a6a" stroke-width="2" stroke-dasharray="6 4"/>`,
  );
  // The reference grid the moves name places by ("Place the Lake at D4"): faint lines every GRID
  // mm, the columns lettered along the top and the rows numbered down the left, in the margin.
  const g = gridOf(v.area);
  const gridText = mail ? MAIL_MIN_TEXT : 12;
  const [gx1, gy1] = [g.x0 + g.columns * GRID, g.y0 + g.rows * GRID];
  for (let k = 0; k <= g.columns; k++)
    out.push(
      `<line x1="${X(g.x0 + k * GRID)}" y1="${Y(g.y0)}" x2="${X(g.x0 + k * GRID)}" y2="${Y(gy1)}" stroke="#c9c2a8" stroke-width="0.6"/>`,
    );
  for (let k = 0; k <= g.rows; k++)
    out.push(
      `<line x1="${X(g.x0)}" y1="${Y(g.y0 + k * GRID)}" x2="${X(gx1)}" y2="${Y(g.y0 + k * GRID)}" stroke="#c9c2a8" stroke-width="0.6"/>`,
    );
  const labelTop = Math.max(gridText, Number(Y(g.y0)) - 4);
  for (let k = 0; k < g.columns; k++)
    out.push(
      `<text x="${X(g.x0 + (k + 0.5) * GRID)}" y="${labelTop.toFixed(1)}" font-size="${gridText}" text-anchor="middle" fill="#8a8064">${columnName(k)}</text>`,
    );
  const labelLeft = Math.max(2, Number(X(g.x0)) - 4);
  for (let k = 0; k < g.rows; k++)
    out.push(
      `<text x="${labelLeft.toFixed(1)}" y="${(Number(Y(g.y0 + (k + 0.5) * GRID)) + gridText / 3).toFixed(1)}" font-size="${gridText}" text-anchor="${labelLeft > 2 ? 'end' : 'start'}" fill="#8a8064">${k + 1}</text>`,
    );
  const hasMetro = v.stations.some((s) => s.kind === 'metro');
  const board = hasMetro ? { w: 140, h: 100 } : v.advanced ? { w: 160, h: 120 } : null;
  if (board) {
    out.push(
      `<rect x="${X(-board.w / 2)}" y="${Y(-board.h / 2)}" width="${(board.w * f.scale).toFixed(1)}" height="${(board.h * f.scale).toFixed(1)}" fill="#d9d4c5" stroke="#776" stroke-width="1.5"/>`,
    );
  }
  for (const o of v.obstacles) {
    const fill = o.kind === 'lake' ? '#9cc9ea' : '#a89078';
    out.push(`<polygon points="${pts(o.shape)}" fill="${fill}" stroke="#555" stroke-width="1"/>`);
  }
  if (v.river)
    out.push(
      `<polyline points="${pts(v.river)}" fill="none" stroke="#2f6fd6" stroke-width="5" stroke-linejoin="round"/>`,
    );
  out.push('</g>');
  // Painting order: links, station cards, the cards' second lines, cubes on
  // top of those, then the cards' names and the links' clip counts. Texts
  // come after the shapes they could touch where the picture allows, so the
  // mail can take them from its text cache (server/mail/text-lift.ts)
  // instead of drawing them every mail.
  const counts: string[] = [];
  for (const l of v.links) {
    const p = v.players[l.owner]!;
    out.push(
      `<polyline points="${pts(l.points)}" fill="none" stroke="#333" stroke-width="5" stroke-linejoin="round"/>`,
    );
    out.push(
      `<polyline points="${pts(l.points)}" fill="none" stroke="${p.fill}" stroke-width="3" stroke-linejoin="round" stroke-dasharray="8 2"/>`,
    );
    const m = l.points[Math.floor((l.points.length - 1) / 2)]!,
      n = l.points[Math.floor((l.points.length - 1) / 2) + 1]!;
    counts.push(
      `<text x="${X((m[0] + n[0]) / 2)}" y="${Y((m[1] + n[1]) / 2)}" font-size="${mail ? MAIL_MIN_TEXT : 10}" fill="#222" text-anchor="middle"${halo}>${l.clips}</text>`,
    );
  }
  const faces = v.stations.map(stationFace);
  out.push(...faces.map((face) => face.card), ...faces.flatMap((face) => face.labels.slice(1)));
  for (const s of v.stations) {
    if (!s.faceDown) {
      const x = X(s.x - s.w / 2),
        y = Y(s.y - s.h / 2),
        h = (s.h * f.scale).toFixed(1);
      let k = 0;
      (s.cubes ?? []).forEach((n, seat) => {
        for (let i = 0; i < n; i++, k++) {
          out.push(
            `<rect x="${(Number(x) + 3 + k * 8).toFixed(1)}" y="${(Number(y) + Number(h) - 10).toFixed(1)}" width="7" height="7" fill="${v.players[seat]!.fill}" stroke="#000" stroke-width="0.7"/>`,
          );
        }
      });
    }
  }
  out.push(...faces.map((face) => face.labels[0]!), ...counts);
  function stationFace(s: SView['stations'][number]): { card: string; labels: string[] } {
    const x = X(s.x - s.w / 2),
      y = Y(s.y - s.h / 2),
      w = (s.w * f.scale).toFixed(1),
      h = (s.h * f.scale).toFixed(1);
    const card = `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="2" fill="${s.fill}" stroke="#333" stroke-width="1"/>`;
    const dark =
      s.kind === 'start' && s.owner != null && ['black', 'red', 'green'].includes(v.players[s.owner]!.colour);
    const label = s.faceDown
      ? s.kind === 'start'
        ? 'start, face down'
        : 'face down'
      : s.kind === 'metro'
        ? `${s.points} ${s.type}`
        : `${s.points} ${s.name}`;
    const shown = esc(label.length > 18 ? `${label.slice(0, 17)}…` : label);
    if (mail) {
      const top = Number(Y(s.y - s.h / 2));
      const bottom = Number(Y(s.y + s.h / 2));
      // near the table's edge the words run inwards from the card's edge
      const cx = Number(X(s.x));
      const at =
        cx < 80
          ? `x="${x}" text-anchor="start"`
          : cx > f.width - 80
            ? `x="${(Number(x) + Number(w)).toFixed(1)}" text-anchor="end"`
            : `x="${X(s.x)}" text-anchor="middle"`;
      const labels = [
        `<text ${at} y="${(top - 3).toFixed(1)}" font-size="${MAIL_MIN_TEXT}" fill="#111"${halo}>${shown}</text>`,
      ];
      if (!s.faceDown)
        labels.push(
          `<text ${at} y="${(bottom + MAIL_MIN_TEXT).toFixed(1)}" font-size="${MAIL_MIN_TEXT}" fill="#333"${halo}>${esc(s.id)}${s.limit != null ? ` · max ${s.limit}` : ''}</text>`,
        );
      return { card, labels };
    }
    const labels = [
      `<text x="${X(s.x)}" y="${Y(s.y - s.h / 2 + 13)}" font-size="9" text-anchor="middle" fill="${dark ? '#fff' : '#111'}">${shown}</text>`,
    ];
    if (!s.faceDown) {
      labels.push(
        `<text x="${X(s.x)}" y="${Y(s.y - s.h / 2 + 24)}" font-size="8" text-anchor="middle" fill="${dark ? '#fff' : '#333'}">${esc(s.id)}${s.limit != null ? ` · max ${s.limit}` : ''}</text>`,
      );
    }
    return { card, labels };
  }
  let y = f.height + 18;
  out.push(`<text x="10" y="${y - 2}" font-size="13" fill="#222">${esc(v.status)}</text>`);
  v.players.forEach((p) => {
    y += 20;
    out.push(`<rect x="10" y="${y - 11}" width="12" height="12" fill="${p.fill}" stroke="#000"/>`);
    out.push(
      `<text x="28" y="${y}" font-size="12" fill="#222">${esc(p.colour)}: ${p.score} points · ${p.clips} clips · ${p.cubes} cubes · ${p.handSize} cards</text>`,
    );
  });
  out.push('</svg>');
  return out.join('');
}
