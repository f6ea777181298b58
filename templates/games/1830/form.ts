// 1830 move form: click a hex of the map on the page to see only its tile lays
// (or stations); "Turn" steps through the rotations of the chosen hex. Without
// this script the lists work as they are (every option is a whole command).

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
  const show = (hex: string | null): void => {
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

wire('lay-1830', 'turn-1830', 'all-1830');
wire('token-1830', null, null);
