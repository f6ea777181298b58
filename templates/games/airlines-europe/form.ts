// Airlines Europe buy form: clicking a route on the map (or in the list)
// chooses the first licence, the next click the second, and the command field
// is filled in from the three choices. Without script the field is typed.

const l1 = document.getElementById('ae-l1');
const l2 = document.getElementById('ae-l2');
const take = document.getElementById('ae-take');
const cmd = document.getElementById('ae-command');

if (
  l1 instanceof HTMLSelectElement &&
  l2 instanceof HTMLSelectElement &&
  take instanceof HTMLSelectElement &&
  cmd instanceof HTMLInputElement
) {
  const update = (): void => {
    const parts = [l1.value];
    if (l2.value && l2.value !== l1.value) parts.push(l2.value);
    cmd.value = `buy ${parts.join(', ')} take ${take.value}`;
  };
  let next = 1;
  const choose = (route: string | null): void => {
    const sel = next === 1 ? l1 : l2;
    const i = Array.from(sel.options).findIndex((o) => o.value.split(' ')[1] === route);
    if (i < 0) return;
    sel.selectedIndex = i;
    next = next === 1 ? 2 : 1;
    update();
  };
  for (const hit of document.querySelectorAll('#ae-move .ae-route, #ae-move .ae-buyable')) {
    hit.addEventListener('click', (e) => {
      if (e.currentTarget instanceof Element) choose(e.currentTarget.getAttribute('data-route'));
    });
  }
  l1.addEventListener('change', update);
  l2.addEventListener('change', update);
  take.addEventListener('change', update);
  update();
}
