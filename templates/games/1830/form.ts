// 1830 move form: click a hex of the map on the page to see only its tile lays
// (or stations), each legal tile and rotation drawn as a picture to click;
// "Turn" steps through the rotations of the chosen hex. Without this script the
// lists work as they are (every option is a whole command).
import { tileSvg } from '../../../rules/1830/track/svg.ts';

interface Choice {
  value: string;
  text: string;
  hex: string | null;
}

function wire(selectId: string, turnId: string | null, allId: string | null): void {
  const sel = document.getElementById(selectId);
  if (!(sel instanceof HTMLSelectElement)) return;
  const all: Choice[] = Array.from(sel.options, (o) => ({
    value: o.value,
    text: o.text,
    hex: o.getAttribute('data-hex'),
  }));
  const turn = turnId ? document.getElementById(turnId) : null;
  const reset = allId ? document.getElementById(allId) : null;
  const pictures = selectId === 'lay-1830' ? document.getElementById('lay-pictures-1830') : null;
  const drawPictures = (hex: string | null): void => {
    if (!pictures) return;
    pictures.replaceChildren();
    pictures.hidden = !hex;
    if (!hex) return;
    const heading = document.createElement('p');
    heading.textContent = `Tiles for ${hex}: click one to lay it`;
    heading.style.margin = '4px 0';
    pictures.append(heading);
    for (const o of all) {
      if (o.hex !== hex) continue;
      const [, , tile, rotation] = o.value.split(' ');
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'tile-pick';
      b.dataset.command = o.value;
      b.title = o.text;
      b.style.cssText =
        'margin:0 6px 6px 0;padding:2px;background:#fff;border:1px solid #999;border-radius:4px;vertical-align:top';
      b.innerHTML = tileSvg(tile ?? '', Number(rotation ?? 0), 76);
      const caption = document.createElement('span');
      caption.textContent = o.text.replace(`${hex}: `, '');
      caption.style.cssText = 'display:block;font-size:12px;max-width:80px';
      b.append(caption);
      b.addEventListener('click', () => {
        sel.value = o.value;
        sel.form?.requestSubmit();
      });
      pictures.append(b);
    }
  };
  const show = (hex: string | null): void => {
    drawPictures(hex);
    while (sel.options.length) sel.remove(0);
    for (const o of all) {
      if (hex && o.hex !== hex) continue;
      const op = new Option(o.text, o.value);
      if (o.hex !== null) op.setAttribute('data-hex', o.hex);
      sel.add(op);
    }
    if (turn) turn.style.display = hex && sel.options.length > 1 ? '' : 'none';
    if (reset) reset.style.display = hex ? '' : 'none';
  };
  turn?.addEventListener('click', () => {
    sel.selectedIndex = (sel.selectedIndex + 1) % sel.options.length;
  });
  reset?.addEventListener('click', () => show(null));
  const hexes = new Set(all.map((o) => o.hex));
  for (const g of document.querySelectorAll<SVGGElement>('g[data-hex]')) {
    const hex = g.getAttribute('data-hex');
    if (!hexes.has(hex)) continue;
    g.style.cursor = 'pointer';
    const shape = g.querySelector('polygon,path');
    if (shape) {
      shape.setAttribute('stroke', '#e06000');
      shape.setAttribute('stroke-width', '3');
    }
    g.addEventListener('click', () => {
      show(hex);
      sel.focus();
    });
  }
}

document.getElementById('lay-hint-1830')?.removeAttribute('hidden');
wire('lay-1830', 'turn-1830', 'all-1830');
wire('token-1830', null, null);
