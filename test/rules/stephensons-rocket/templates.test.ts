// The game's partials render through the server's renderer, showing only what the view holds.
import { describe, expect, it } from 'vitest';
import { PageRenderer } from '../../../server/render.ts';
import { game, giveShares, giveTokens, H, putLoco, R, board, spotNextTo } from './helpers.ts';

const renderer = new PageRenderer();
const players = [
  { seat: 0, name: 'Ada' },
  { seat: 1, name: 'Bob' },
  { seat: 2, name: 'Cy' },
];

function ctx(s: ReturnType<typeof game>, seat: number | null) {
  return {
    view: R.view(s, seat),
    players,
    you: seat,
    game: { id: 'g1', title: "Stephenson's Rocket", seq: 3 },
    moveUrl: '/play/k/move',
    seq: 3,
    moves: [],
  };
}

describe('templates', () => {
  const spot = spotNextTo('city');
  const city = spot.place;
  const s = game(3);
  putLoco(s, 'NR', spot.from, spot.facing);
  giveTokens(s, 1, city, 1);
  R.apply(s, 0, { type: 'extend', line: 'NR', to: spot.target }); // Bob is paid 2,000

  it('the HTML view shows lines, players, goods, and only your own money', () => {
    const bob = renderer.gameView('stephensons-rocket', ctx(s, 1))!;
    expect(bob).toContain('London &amp; North Western Railway');
    expect(bob).toContain('Manchester');
    expect(bob).toMatch(/Your money \(secret\): <b>\$2,000/);
    const ada = renderer.gameView('stephensons-rocket', ctx(s, 0))!;
    expect(ada).not.toMatch(/2,000/);
    expect(ada).toContain('secret');
    const spectator = renderer.gameView('stephensons-rocket', ctx(s, null))!;
    expect(spectator).not.toMatch(/2,000/);
    expect(renderer.gameViewText('stephensons-rocket', ctx(s, 1))).toMatch(/Your money \(secret\): \$2,000/);
    expect(renderer.gameViewText('stephensons-rocket', ctx(s, 2))).not.toMatch(/2,000/);
  });

  it('the form offers extensions, tokens, stations and a command field on your turn, bids in a vote', () => {
    const form = renderer.gameForm('stephensons-rocket', ctx(s, 0))!;
    expect(form).toContain('action="/play/k/move"');
    expect(form).toMatch(/value="extend LMR K7"/);
    expect(form).toMatch(/value="token manchester textiles"/);
    expect(form).toContain('name="command"');
    expect(renderer.gameForm('stephensons-rocket', ctx(s, 1))).toBe('');
    const t = game(2);
    putLoco(t, 'NR', 'P7', 3);
    giveShares(t, 1, 'NR', 3);
    R.apply(t, 0, { type: 'extend', line: 'NR', to: board.hexIds[board.neighbour[H('P7')]![3]!]! });
    const bidForm = renderer.gameForm('stephensons-rocket', ctx(t, 1))!;
    expect(bidForm).toContain('value="bid 0"');
    expect(bidForm).toMatch(/value="bid 3 [A-Z]\d+"/);
  });
});

describe('turn mail', () => {
  it('renders the view and the board PNG through the mail renderer', async () => {
    const { MailRenderer } = await import('../../../server/mail/render.ts');
    const s = game(3);
    R.apply(s, 0, { type: 'token', city: 'manchester', good: 'textiles' });
    const view = R.view(s, 0);
    const mail = await new MailRenderer().render(
      {
        kind: 'turn',
        game: { id: 'g1', title: "Stephenson's Rocket", seq: 2 },
        players,
        you: 0,
        recipientName: 'Ada',
        view,
        svg: R.svg!(view),
        links: { play: 'http://localhost/play/k' },
        quickMoves: [{ label: 'extend LMR', url: 'http://localhost/play/k/m/0' }],
      },
      'stephensons-rocket',
    );
    expect(mail.html).toContain('Liverpool &amp; Manchester Railway');
    expect(mail.text).toMatch(/Lines:/);
    expect(mail.png?.subarray(1, 4).toString()).toBe('PNG');
  });
});

describe('the end', () => {
  it('shows every payment to everybody once the game is over', () => {
    const s = game(3);
    giveTokens(s, 1, 'manchester', 1);
    s.lines[3]!.connected.push(board.placeIndex.get('manchester')!);
    for (const i of [0, 1, 2, 3, 4, 5]) Object.assign(s.lines[i]!, { isolated: true, retired: 16, supply: 0 });
    R.apply(s, 0, { type: 'token', city: 'exeter', good: 'leather' });
    expect(s.finished).toBe(true);
    const html = renderer.gameView('stephensons-rocket', ctx(s, null))!;
    expect(html).toContain('Every payment of the game');
    expect(html).toMatch(/Bob: \$6,000 — final/);
    // The final scoring names the players (the state keeps "seat 2").
    expect(s.finalScoring.join(' ')).toMatch(/seat 2 /);
    const scoring = html.slice(html.indexOf('Final scoring'));
    expect(scoring).toContain('Bob $');
    expect(scoring).not.toMatch(/seat \d/);
    expect(renderer.gameViewText('stephensons-rocket', ctx(s, 0))).not.toMatch(/^ {2}.*seat \d/m);
  });
});
