// Paperclip Railways move form. Without script every move is a typed command.
// With it: click your start station, then the end station (or choose a card
// from your hand and click an empty spot to place it), then click to add bends
// and drag them; the clips, crossings and score are shown before you send (the
// server checks and scores the link exactly). In the set-up phases a click
// places the obstacle or the river's next point.

type Point = [number, number];
type Path = readonly (readonly [number, number])[];

/** The parts of the seat's view (rules/paperclip-railways/view.ts buildView) this script reads, from #pc-form's data-view. */
interface Station {
  id: string;
  kind: string;
  name: string;
  x: number;
  y: number;
  w: number;
  h: number;
  left: number;
  top: number;
  faceDown?: boolean;
  owner?: number | null;
  cubes?: number[];
  points?: number;
}
interface FormView {
  seat: number | null;
  phase: string;
  clipLength: number;
  card: { w: number; h: number };
  penalty: number;
  area: Path;
  river: Path | null;
  riverLength: number;
  stations: Station[];
  hand?: { id: string; points: number }[] | null;
  links: { owner: number; points: Path }[];
  obstacles: { shape: Path }[];
  obstacleSupply: { id: string; name: string; shape: Path }[];
}

/** Where the link ends: a station on the table, or the new card about to be placed. */
interface End {
  x: number;
  y: number;
  w: number;
  h: number;
  points?: number;
}

const NS = 'http://www.w3.org/2000/svg';

function orient(a: readonly number[], b: readonly number[], c: readonly number[]): number {
  const [ax = 0, ay = 0] = a;
  const [bx = 0, by = 0] = b;
  const [cx = 0, cy = 0] = c;
  const x = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  return x > 0 ? 1 : x < 0 ? -1 : 0;
}
function box(a: readonly number[], b: readonly number[], c: readonly number[]): boolean {
  const [ax = 0, ay = 0] = a;
  const [bx = 0, by = 0] = b;
  const [cx = 0, cy = 0] = c;
  return Math.min(ax, bx) <= cx && cx <= Math.max(ax, bx) && Math.min(ay, by) <= cy && cy <= Math.max(ay, by);
}
/** Segments a-b and c-d meet (touching counts). */
function touch(a: readonly number[], b: readonly number[], c: readonly number[], d: readonly number[]): boolean {
  const o1 = orient(a, b, c);
  const o2 = orient(a, b, d);
  const o3 = orient(c, d, a);
  const o4 = orient(c, d, b);
  if (o1 !== o2 && o3 !== o4) return true;
  return (
    (o1 === 0 && box(a, b, c)) || (o2 === 0 && box(a, b, d)) || (o3 === 0 && box(c, d, a)) || (o4 === 0 && box(c, d, b))
  );
}
/** Consecutive pairs of a polyline (for a polygon, pass it closed or use ring()). */
function segments<T>(line: readonly T[]): [T, T][] {
  const out: [T, T][] = [];
  for (let i = 1; i < line.length; i++) out.push([line[i - 1] as T, line[i] as T]);
  return out;
}
/** The sides of a polygon, last corner back to the first included. */
function ring<T>(poly: readonly T[]): [T, T][] {
  return poly.map((p, k) => [poly[(k === 0 ? poly.length : k) - 1] as T, p]);
}
function inPoly(p: readonly number[], poly: Path): boolean {
  const [px = 0, py = 0] = p;
  let inside = false;
  for (const [[ax, ay], [bx, by]] of ring(poly)) {
    if (ay > py !== by > py && px < ax + ((py - ay) * (bx - ax)) / (by - ay)) inside = !inside;
  }
  return inside;
}
function meetsPoly(line: Path, poly: Path): boolean {
  for (const [a, b] of segments(line)) {
    if (inPoly(b, poly)) return true;
    for (const [m, k] of ring(poly)) if (touch(a, b, m, k)) return true;
  }
  return false;
}
function lengthOf(line: Path): number {
  let len = 0;
  for (const [a, b] of segments(line)) len += Math.hypot(b[0] - a[0], b[1] - a[1]);
  return len;
}
const joined = (ps: Path): string => ps.map((p) => p.join(',')).join(' ');
function rot(p: readonly [number, number], deg: number): readonly [number, number] {
  const q = (((deg / 90) % 4) + 4) % 4;
  return q === 0 ? p : q === 1 ? [-p[1], p[0]] : q === 2 ? [-p[0], -p[1]] : [p[1], -p[0]];
}
function exitPt(s: End, t: readonly number[]): Point {
  const hw = s.w / 2;
  const hh = s.h / 2;
  const [tx = 0, ty = 0] = t;
  const dx = tx - s.x;
  const dy = ty - s.y;
  if (Math.abs(dx) * hh >= Math.abs(dy) * hw)
    return [
      dx > 0 ? s.x + hw : s.x - hw,
      Math.min(s.y + hh, Math.max(s.y - hh, Math.round(s.y + (dy * hw) / Math.abs(dx)))),
    ];
  return [
    Math.min(s.x + hw, Math.max(s.x - hw, Math.round(s.x + (dx * hh) / Math.abs(dy)))),
    dy > 0 ? s.y + hh : s.y - hh,
  ];
}

function start(root: HTMLElement, svg: SVGSVGElement): void {
  const v = JSON.parse(root.getAttribute('data-view') ?? 'null') as FormView;
  const me = v.seat;
  const clip = v.clipLength;
  const st = new Map(v.stations.map((s) => [s.id, s]));
  const hand = new Map((v.hand ?? []).map((c) => [c.id, c]));
  const cmd = document.getElementById('pc-command') as HTMLInputElement | null;
  const info = document.getElementById('pc-info');
  const sel = document.getElementById('pc-card') as HTMLSelectElement | null;
  const draft = document.getElementById('pc-draft');
  if (!cmd || !info || !draft) return;
  let pick: { from: string | null; to: string | null; card: string | null; at: Point | null; bends: Point[] } = {
    from: null,
    to: null,
    card: null,
    at: null,
    bends: [],
  };
  let drag = -1;

  const pt = (e: MouseEvent): Point => {
    const p = svg.createSVGPoint();
    p.x = e.clientX;
    p.y = e.clientY;
    const q = p.matrixTransform(svg.getScreenCTM()?.inverse());
    return [Math.round(q.x), Math.round(q.y)];
  };
  const owns = (s: Station | undefined): boolean =>
    !!s && !s.faceDown && ((s.kind === 'start' && s.owner === me) || (me !== null && (s.cubes?.[me] ?? 0) > 0));
  const endSt = (): End | null => {
    if (pick.to) return st.get(pick.to) ?? null;
    if (pick.at)
      return {
        x: pick.at[0],
        y: pick.at[1],
        w: v.card.w,
        h: v.card.h,
        points: pick.card ? hand.get(pick.card)?.points : undefined,
      };
    return null;
  };
  const line = (): Point[] | null => {
    const a = pick.from ? st.get(pick.from) : undefined;
    const b = endSt();
    if (!a || !b) return null;
    const first = pick.bends[0] ?? [b.x, b.y];
    const last = pick.bends[pick.bends.length - 1] ?? [a.x, a.y];
    return [exitPt(a, first), ...pick.bends, exitPt(b, last)];
  };
  const el = (name: string, attrs: Record<string, string | number>): SVGElement => {
    const e = document.createElementNS(NS, name);
    for (const [k, value] of Object.entries(attrs)) e.setAttribute(k, String(value));
    draft.appendChild(e);
    return e;
  };
  const checkedValues = (selector: string): string[] =>
    Array.from(document.querySelectorAll<HTMLInputElement>(selector))
      .filter((b) => b.checked)
      .map((b) => b.value);
  const command = (): string => {
    if (!pick.from) return '';
    let c = `build ${pick.from} ${pick.to ? pick.to : pick.at ? `new ${pick.card} at ${pick.at.join(',')}` : ''}`;
    if (pick.bends.length) c += ` via ${pick.bends.map((b) => b.join(',')).join(' ')}`;
    const pay = checkedValues('.pc-pay').filter((id) => id !== pick.card);
    if (pay.length) c += ` pay ${pay.join(' ')}`;
    return c;
  };
  const clear = (): void => {
    while (draft.firstChild) draft.removeChild(draft.firstChild);
  };

  const render = (): void => {
    clear();
    const from = pick.from ? st.get(pick.from) : undefined;
    if (from)
      el('rect', {
        x: from.left - 4,
        y: from.top - 4,
        width: from.w + 8,
        height: from.h + 8,
        fill: 'none',
        stroke: '#e60',
        'stroke-width': 3,
      });
    if (pick.at)
      el('rect', {
        x: pick.at[0] - v.card.w / 2,
        y: pick.at[1] - v.card.h / 2,
        width: v.card.w,
        height: v.card.h,
        fill: '#fff',
        'fill-opacity': 0.7,
        stroke: '#e60',
        'stroke-dasharray': '4 3',
      });
    const L = line();
    cmd.value = command();
    if (!L) {
      info.textContent = pick.from
        ? 'Now click the end station, or choose a card from your hand and click where to place it.'
        : 'Click your start station (your starting station or one with your cube).';
      return;
    }
    el('polyline', { points: joined(L), fill: 'none', stroke: '#e60', 'stroke-width': 4, 'stroke-dasharray': '10 4' });
    pick.bends.forEach((b, i) => {
      const c = el('circle', { cx: b[0], cy: b[1], r: 9, fill: '#e60', 'fill-opacity': 0.6, style: 'cursor:move' });
      c.setAttribute('data-bend', String(i));
    });
    const len = lengthOf(L);
    const clips = Math.max(1, Math.ceil(len / clip - 1e-9));
    let crossings = 0;
    let obstacles = 0;
    // Distinct meeting points with each other player's link (not at this link's two ends).
    const ends = [L[0], L[L.length - 1]].map((p) => p?.join(','));
    for (const l of v.links) {
      if (l.owner === me) continue;
      const seen = new Set<string>();
      for (const [a, b] of segments(L)) {
        segments(l.points).forEach(([c, d], j) => {
          if (!touch(a, b, c, d)) return;
          const den = (b[0] - a[0]) * (d[1] - c[1]) - (b[1] - a[1]) * (d[0] - c[0]);
          let key: string;
          if (den === 0) key = `overlap${j + 1}`;
          else {
            const t = ((c[0] - a[0]) * (d[1] - c[1]) - (c[1] - a[1]) * (d[0] - c[0])) / den;
            key = `${Math.round(a[0] + t * (b[0] - a[0]))},${Math.round(a[1] + t * (b[1] - a[1]))}`;
            if (ends.includes(key)) return;
          }
          seen.add(key);
        });
      }
      crossings += seen.size;
    }
    for (const o of v.obstacles) if (meetsPoly(L, o.shape)) obstacles++;
    const river = v.river;
    if (river && segments(L).some(([a, b]) => segments(river).some(([c, d]) => touch(a, b, c, d)))) obstacles++;
    const to = endSt();
    let penalty = 0;
    if (pick.at) {
      // A new station touching an obstacle or the river pays the penalty on the construction board.
      const hw = v.card.w / 2;
      const hh = v.card.h / 2;
      const [x, y] = pick.at;
      const R: Point[] = [
        [x - hw, y - hh],
        [x + hw, y - hh],
        [x + hw, y + hh],
        [x - hw, y + hh],
        [x - hw, y - hh],
      ];
      const inR = (p: readonly number[]) => {
        const [px = 0, py = 0] = p;
        return px >= x - hw && px <= x + hw && py >= y - hh && py <= y + hh;
      };
      const onObst =
        v.obstacles.some((o) => meetsPoly(R, o.shape) || o.shape.some(inR)) ||
        (river?.some((p, k) => inR(p) || (k > 0 && meetsPoly([river[k - 1] ?? p, p], R.slice(0, 4)))) ?? false);
      if (onObst) penalty = v.penalty;
    }
    const score = (from?.points || 0) + (to?.points || 0) + clips - crossings - 2 * obstacles - penalty;
    const outside = L.some(
      (p) => !inPoly(p, v.area) && !ring(v.area).some(([q, r]) => orient(q, r, p) === 0 && box(q, r, p)),
    );
    info.textContent = `${clips} clips (${Math.round(len)} mm) · about ${Math.max(1, Math.ceil(clips / 3))} card(s) to pay · ${crossings} crossing(s) of other players · ${obstacles} obstacle(s)${penalty ? ` · new station on an obstacle −${penalty}` : ''} · score about ${score}${outside ? ' · leaves the play area!' : ''}. Click to add a bend, drag bends to move them, then Send.`;
  };

  const obstacleSel = document.getElementById('pc-obstacle') as HTMLSelectElement | null;
  const rotSel = document.getElementById('pc-rot') as HTMLSelectElement | null;
  let river: Point[] = [];
  let spot: Point | null = null;
  const renderSetup = (): void => {
    clear();
    if (v.phase === 'obstacles' && spot && obstacleSel) {
      const def = v.obstacleSupply.find((o) => o.id === obstacleSel.value);
      const at = spot;
      const deg = Number(rotSel?.value);
      if (def) {
        const shape = def.shape.map((p): Point => {
          const r = rot(p, deg);
          return [r[0] + at[0], r[1] + at[1]];
        });
        el('polygon', { points: joined(shape), fill: '#e60', 'fill-opacity': 0.35, stroke: '#e60' });
        cmd.value = `obstacle ${def.id} ${at.join(',')}${deg ? ` ${deg}` : ''}`;
        info.textContent = `${def.name} at ${at.join(',')}. Click elsewhere to move it, then Send.`;
      }
    }
    if (v.phase === 'river') {
      const len = lengthOf(river);
      if (river.length)
        el('polyline', {
          points: joined(river),
          fill: 'none',
          stroke: '#2f6fd6',
          'stroke-width': 5,
          'stroke-opacity': 0.6,
        });
      for (const p of river) el('circle', { cx: p[0], cy: p[1], r: 6, fill: '#2f6fd6' });
      cmd.value = river.length ? `river ${joined(river)}` : '';
      info.textContent = `${river.length} point(s), ${Math.round(len)} of at most ${v.riverLength} mm${len > v.riverLength ? ': too long!' : ''}.`;
    }
  };

  const discardCmd = document.getElementById('pc-discard-command') as HTMLInputElement | null;
  for (const b of document.querySelectorAll('.pc-discard')) {
    b.addEventListener('change', () => {
      const picked = checkedValues('.pc-discard');
      if (discardCmd) discardCmd.value = picked.length ? `discard ${picked.join(' ')}` : '';
      cmd.value = discardCmd?.value ?? '';
    });
  }
  for (const b of document.querySelectorAll('.pc-pay')) b.addEventListener('change', render);
  if (obstacleSel) {
    obstacleSel.addEventListener('change', renderSetup);
    rotSel?.addEventListener('change', renderSetup);
  }
  svg.addEventListener('pointerdown', (e) => {
    const t = e.target instanceof Element ? e.target : null;
    if (v.phase === 'discard') return;
    if (v.phase === 'obstacles') {
      spot = pt(e);
      renderSetup();
      return;
    }
    if (v.phase === 'river') {
      river.push(pt(e));
      renderSetup();
      return;
    }
    const bend = t?.getAttribute('data-bend');
    if (bend !== null && bend !== undefined) {
      drag = Number(bend);
      svg.setPointerCapture(e.pointerId);
      e.preventDefault();
      return;
    }
    const id = t?.getAttribute('data-id') ?? null;
    if (!pick.from) {
      const s = id ? st.get(id) : undefined;
      if (id && owns(s)) {
        pick.from = id;
        render();
      } else
        info.textContent = id
          ? `You cannot start from ${s?.name}: no cube of yours there.`
          : 'Click one of your stations first.';
      return;
    }
    if (!pick.to && !pick.at) {
      if (id && id !== pick.from) {
        pick.to = id;
        render();
        return;
      }
      if (!id && sel?.value) {
        pick.card = sel.value;
        pick.at = pt(e);
        render();
        return;
      }
      info.textContent = 'Click a station, or choose a card from your hand first and then click where it goes.';
      return;
    }
    if (!id) {
      pick.bends.push(pt(e));
      render();
    }
  });
  svg.addEventListener('pointermove', (e) => {
    if (drag >= 0) {
      pick.bends[drag] = pt(e);
      render();
    }
  });
  svg.addEventListener('pointerup', () => {
    drag = -1;
  });
  document.getElementById('pc-reset')?.addEventListener('click', () => {
    if (v.phase === 'river') {
      river = [];
      renderSetup();
      return;
    }
    pick = { from: null, to: null, card: null, at: null, bends: [] };
    render();
  });
  document.getElementById('pc-undo-bend')?.addEventListener('click', () => {
    if (v.phase === 'river') {
      river.pop();
      renderSetup();
      return;
    }
    pick.bends.pop();
    render();
  });
}

const root = document.getElementById('pc-form');
const svg = document.getElementById('pc-svg');
if (root && svg instanceof SVGSVGElement) start(root, svg);
