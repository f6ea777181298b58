// Airlines move form: clicking a route circle or a route card on the page
// narrows the list of moves to those that use it; on submit the chosen move
// gets the share count and the card to draw. Without script every move in the
// list posts as it is.

const root = document.getElementById('air-move');

if (root) {
  const choices = root.querySelectorAll<HTMLElement>('.air-choice');
  const narrow = (attr: string, value: string | null): void => {
    let first: HTMLElement | null = null;
    for (const c of choices) {
      const show = value === null || c.getAttribute(attr) === value;
      c.style.display = show ? 'block' : 'none';
      if (show && !first) first = c;
    }
    const radio = first?.querySelector('input');
    if (radio) radio.checked = true;
  };
  for (const el of root.querySelectorAll('.air-pick'))
    el.addEventListener('click', () => narrow('data-circle', el.getAttribute('data-circle')));
  for (const el of root.querySelectorAll('.air-card'))
    el.addEventListener('click', () => narrow('data-card', el.getAttribute('data-card')));
  for (const el of root.querySelectorAll('.air-all')) el.addEventListener('click', () => narrow('x', null));

  const fieldValue = (form: Element, selector: string): string | null => {
    const field = form.querySelector(selector);
    return field instanceof HTMLInputElement || field instanceof HTMLSelectElement ? field.value : null;
  };

  for (const form of root.querySelectorAll('form.air-form')) {
    form.addEventListener('submit', () => {
      const radio = form.querySelector<HTMLInputElement>('input[type=radio]:checked');
      if (!radio) return;
      const parts = radio.value.split(' ');
      const count = fieldValue(form, '.air-count');
      if (count && parts[0] === 'found') parts[2] = count;
      const draw = fieldValue(form, '.air-draw');
      radio.value = parts.join(' ') + (draw !== null ? ` take ${draw}` : '');
    });
  }

  for (const form of root.querySelectorAll('form.air-stock')) {
    const text = form.querySelector('.air-text');
    if (!(text instanceof HTMLInputElement)) continue;
    const build = (): void => {
      let cmd = `stock ${fieldValue(form, '.air-company')} ${fieldValue(form, '.air-count') || '1'}`;
      const marker = fieldValue(form, '.air-marker');
      if (marker) cmd += ` sabotage ${marker} ${fieldValue(form, '.air-sabotage')}`;
      text.value = cmd;
    };
    for (const el of form.querySelectorAll('select, input.air-count')) el.addEventListener('change', build);
  }
}
