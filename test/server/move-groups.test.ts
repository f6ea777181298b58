// The play page's two-step choice (server/http/page-parts.ts groupMoves): a kind of move offered
// many times is chosen by its subject first; the subject's words end without the word that joins
// them to the buttons ("GGA (1 stock)", not "GGA (1 stock) to").
import { describe, expect, it } from 'vitest';
import { groupMoves } from '../../server/http/page-parts.ts';
import type { MoveChoice } from '../../server/service.ts';

const found = (company: string, to: string, card: number, draw: string, n: number): MoveChoice => ({
  n,
  action: { type: 'found', company, count: 1, card, circle: `${to}/1`, draw },
  text: 'founded ...',
  label: `Found ${company} (1 stock) to ${to} 1 with a ${card}, ${draw === 'pile' ? 'draw stock' : `take ${draw}`}`,
});

describe('two-step move choices', () => {
  it('names each subject without a joining word or article at its end', () => {
    const moves = [
      found('GGA', 'Las Vegas', 2, 'pile', 0),
      found('GGA', 'Los Angeles', 4, 'pile', 1),
      ...['pile', 'SWX', 'PNA', 'RMA', 'GLA', 'EMP'].map((d, i) => found('PNA', 'Vancouver', 3 + (i % 2), d, 2 + i)),
      ...['pile', 'SWX', 'PNA', 'RMA', 'GLA'].map((d, i) => found('RMA', 'Denver', 5, d, 8 + i)),
    ];
    const [group] = groupMoves(moves);
    expect(group!.label).toBe('Found');
    expect(group!.subgroups.map((g) => g.label)).toEqual([
      'GGA (1 stock)',
      'PNA (1 stock) to Vancouver 1',
      'RMA (1 stock) to Denver 1 with a 5',
    ]);
    // The buttons say the rest; their titles the whole move.
    const rma = group!.subgroups[2]!.buttons;
    expect(rma.map((b) => b.text)).toEqual(['draw stock', 'take SWX', 'take PNA', 'take RMA', 'take GLA']);
    expect(rma[1]!.title).toBe('Found RMA (1 stock) to Denver 1 with a 5, take SWX');
  });

  it('makes a choice of one move its button, and plain buttons where no step could be named', () => {
    const moves = [
      found('GGA', 'Las Vegas', 2, 'pile', 0),
      ...['pile', 'SWX', 'PNA', 'RMA', 'GLA', 'EMP'].map((d, i) => found('PNA', 'Vancouver', 3 + (i % 2), d, 1 + i)),
      ...['pile', 'SWX', 'PNA', 'RMA', 'GLA', 'EMP'].map((d, i) => found('RMA', 'Denver', 5, d, 7 + i)),
    ];
    const [group] = groupMoves(moves);
    expect(group!.subgroups[0]).toMatchObject({ single: true });
    expect(group!.subgroups[0]!.buttons.map((b) => b.text)).toEqual([
      'GGA (1 stock) to Las Vegas 1 with a 2, draw stock',
    ]);

    // Thirteen buys grouped by where the share comes from: a field the words do not start with.
    const buys: MoveChoice[] = Array.from({ length: 13 }, (_, n) => ({
      n,
      action: { type: 'buy', licences: [{ airline: 'red', route: `r${n}` }], take: n % 2 ? 'pile' : 'market' },
      text: 'bought ...',
      label: `Buy ${n % 3 ? 'Red' : 'Grey'} Route ${n}, ${n % 2 ? 'draw a share' : 'take Blue'}`,
    }));
    const [plain] = groupMoves(buys);
    expect(plain!.subgroups).toEqual([]);
    expect(plain!.buttons.map((b) => b.text).slice(0, 2)).toEqual([
      'Grey Route 0, take Blue',
      'Red Route 1, draw a share',
    ]);
  });
});
