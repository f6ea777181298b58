// The new-game form with script: only the chosen game's options are shown, and the player
// count takes only that game's range. Without script every game's options stay, each in its
// own group, and the server checks the count.
const select = document.getElementById('rules') as HTMLSelectElement | null;
const seats = document.getElementById('seats') as HTMLInputElement | null;
const range = document.getElementById('seats-range');

function update(): void {
  if (!select || !seats) return;
  const chosen = select.selectedOptions[0];
  const min = chosen?.dataset.min ?? '1';
  const max = chosen?.dataset.max ?? '12';
  seats.min = min;
  seats.max = max;
  if (range) range.textContent = `(${min} to ${max} for this game)`;
  for (const set of Array.from(document.querySelectorAll<HTMLFieldSetElement>('fieldset.game-options'))) {
    const mine = set.dataset.game === select.value;
    set.hidden = !mine;
    // A hidden group sends nothing: the server reads only the chosen game's options anyway.
    set.disabled = !mine;
  }
}

select?.addEventListener('change', update);
update();
