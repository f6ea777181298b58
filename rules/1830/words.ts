// Messages to players are whole sentences.
export function sentence(s: string): string {
  return s.length ? s[0]!.toUpperCase() + s.slice(1) : s;
}
