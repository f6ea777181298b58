// History lines name players: the rules write `{seat:N}`, the server the name.
import { describe, expect, it } from 'vitest';
import { lineOf, nameSeats, nameSeatsInMarkup } from '../../server/game-log.ts';
import type { GameDoc, LogEntry } from '../../server/store/types.ts';

const doc = { seats: [{ name: 'Ada' }, { name: 'Bob' }] } as unknown as GameDoc;

describe('seat names in history lines', () => {
  it('writes the acting player first and names every {seat:N} the rules mention', () => {
    const entry = {
      seq: 3,
      at: '2026-11-29T10:00:00.000Z',
      kind: 'move',
      seat: 0,
      text: 'extended the LNWR; city scoring for Leeds: {seat:1} 2,000, {seat:0} 1,000',
    } as LogEntry;
    expect(lineOf(doc, entry).text).toBe('Ada extended the LNWR; city scoring for Leeds: Bob 2,000, Ada 1,000');
  });

  it('falls back to the seat number for a seat that does not exist and leaves other braces alone', () => {
    expect(nameSeats('{seat:5} and {seat:x}', doc)).toBe('Seat 6 and {seat:x}');
  });

  it('cuts a name to the room a picture gives it ({seat:N:W}), ending a cut one in an ellipsis', () => {
    const long = { seats: [{ name: 'Maximiliane von Hohenzollern' }, { name: 'Bob' }] } as unknown as GameDoc;
    expect(nameSeats('{seat:0:12} and {seat:1:12}', long)).toBe('Maximiliane… and Bob');
    expect(nameSeats('{seat:0:28}', long)).toBe('Maximiliane von Hohenzollern');
    expect(nameSeats('{seat:0:27}', long)).toBe('Maximiliane von Hohenzolle…');
    const amp = { seats: [{ name: 'Ann & Al' }] } as unknown as GameDoc;
    expect(nameSeatsInMarkup('<text>{seat:0:5}|{seat:0:9}</text>', amp)).toBe('<text>Ann…|Ann &amp; Al</text>');
  });
});
