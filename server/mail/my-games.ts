// One list of all the games of an address ("my games"): whose turn, since when, and the
// player's own links. The page /games/<token> (the link in every mail to that address) and the
// mail sent on request (POST /games) both show it. Found by the index's address hashes; the
// address itself is never stored there.
import type { GameService } from '../service.ts';
import { mailHash } from '../store/index-entry.ts';
import { gameLabel } from './compose.ts';

export interface MyGame {
  title: string;
  status: string;
  yourTurn: boolean;
  whoseTurn: string;
  /** When the game last changed (ISO) and how long ago that was, in words. */
  at: string;
  ago: string;
  links: { label: string; url: string }[];
}

/** At most this many games in one list (the newest). */
const MAX_GAMES = 200;

export async function gamesOf(service: GameService, email: string, now: number): Promise<MyGame[]> {
  const address = email.trim().toLowerCase();
  const { entries } = await service.listGames({ mailHash: mailHash(address), limit: MAX_GAMES });
  const links = service.links;
  const out: MyGame[] = [];
  for (const e of entries) {
    let game: Awaited<ReturnType<GameService['open']>>;
    try {
      game = await service.open(e.id);
    } catch {
      continue; // a damaged game: the others still show
    }
    const d = game.doc;
    const mine = d.seats.flatMap((s, i) => (!s.vacant && s.email.trim().toLowerCase() === address ? [i] : []));
    const organiser = d.creator.email.trim().toLowerCase() === address;
    if (mine.length === 0 && !organiser) continue;
    const toAct = d.status === 'active' ? (d.wait?.toAct ?? []) : [];
    const yourTurn = toAct.some((s) => mine.includes(s));
    const others = toAct.filter((s) => !mine.includes(s)).map((s) => d.seats[s]?.name ?? `seat ${s + 1}`);
    const names = [...(yourTurn ? ['you'] : []), ...others];
    const status =
      d.status === 'open'
        ? `Waiting for players (${d.seats.length} of ${d.seatCount})`
        : d.status === 'active'
          ? 'Running'
          : d.status === 'finished'
            ? 'Over'
            : 'Abandoned';
    const at = d.status === 'active' && d.wait ? d.wait.since : d.updatedAt;
    out.push({
      title: gameLabel(d),
      status,
      yourTurn,
      whoseTurn: names.length
        ? `${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`} to act`
        : '',
      at,
      ago: ago(at, now),
      links: [
        ...mine.map((seat) => ({
          label: mine.length > 1 ? `Your page (${d.seats[seat]!.name})` : 'Your page',
          url: links.playUrl(links.seatKeyOf(d, seat)),
        })),
        ...(organiser ? [{ label: "Organiser's page", url: links.adminUrl(links.adminKeyOf(d)) }] : []),
      ],
    });
  }
  // Games waiting for you first, then the newest.
  return out.sort((a, b) => Number(b.yourTurn) - Number(a.yourTurn));
}

/** "3 hours ago", "2 days ago", "just now". */
export function ago(iso: string, now: number): string {
  const s = Math.max(0, (now - Date.parse(iso)) / 1000);
  const unit = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'} ago`;
  if (s < 60) return 'just now';
  if (s < 3600) return unit(Math.floor(s / 60), 'minute');
  if (s < 86_400) return unit(Math.floor(s / 3600), 'hour');
  return unit(Math.floor(s / 86_400), 'day');
}
