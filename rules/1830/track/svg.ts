// The 1830 map as SVG.
import type { Board } from './types';

export function mapSvg(_board: Board): string {
  return '<svg xmlns="http://www.w3.org/2000/svg"/>';
}
