// Player names as people see them. A name is normalised (NFKC, one space for
// any run of white space) and refused if it holds characters nobody can see or
// that reorder text: control and format characters (zero-width joiners and
// spaces, right-to-left overrides and isolates, soft hyphens), private-use and
// unassigned code points, and the blank letters some scripts have. Two names
// at one table may not look alike: they are compared by their skeletons
// (Unicode's confusables, via unhomoglyph), so "Аda" in Cyrillic is "Ada".
import unhomoglyph from 'unhomoglyph';
import { ServiceError } from './errors.ts';

/** Characters that show as nothing (or move other text about). */
// (U+034F, the combining grapheme joiner, is a mark: it goes on its own, not in the class.)
const UNSEEN = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\u115F\u1160\u17B4\u17B5\u2800\u3164\uFFA0]|\u034F/u;

export const MAX_NAME_LENGTH = 40;

export function cleanName(raw: string): string {
  const name = String(raw ?? '')
    .normalize('NFKC')
    .replace(/\s+/g, ' ')
    .trim();
  if (name.length === 0) throw new ServiceError(400, 'Please give a name.');
  if (name.length > MAX_NAME_LENGTH) throw new ServiceError(400, 'Please keep the name under 40 characters.');
  if (UNSEEN.test(name))
    throw new ServiceError(
      400,
      'The name holds an invisible or control character (zero-width, right-to-left override and the like); please type it plainly.',
    );
  return name;
}

/** What a name looks like, for telling two names apart: equal skeletons look alike. */
export function nameSkeleton(name: string): string {
  return unhomoglyph(unhomoglyph(name.normalize('NFKC')).toLowerCase()).normalize('NFD');
}

/** Whether two names would be taken for each other. */
export function looksLike(a: string, b: string): boolean {
  return nameSkeleton(a) === nameSkeleton(b);
}
