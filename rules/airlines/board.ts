// The board of Airlines as data: cities, airlines, routes with their circles,
// and the route cards. Loaded from data/board.json and checked once at load,
// then indexed for the rules (circles numbered globally, cities by code).
import { z } from 'zod';
import boardJson from './data/board.json' with { type: 'json' };

const code = z.string().regex(/^[A-Z]{3}$/);

const boardSchema = z.object({
  name: z.string(),
  markersPerCompany: z.number().int().positive(),
  scoringCards: z.number().int().positive(),
  handStock: z.number().int().positive(),
  handRoutes: z.number().int().positive(),
  openStock: z.number().int().positive(),
  patterns: z.array(z.object({ id: z.string().regex(/^[a-z]+$/), name: z.string() })).length(5),
  cities: z.array(
    z.object({
      code,
      name: z.string(),
      lat: z.number().min(10).max(70),
      lon: z.number().min(-170).max(-50),
      /** Where the name goes in the picture, as a compass point from the city. */
      label: z.enum(['n', 's', 'e', 'w', 'ne', 'nw', 'se', 'sw']).default('ne'),
    }),
  ),
  companies: z
    .array(
      z.object({
        code,
        name: z.string(),
        colour: z.string().regex(/^#[0-9a-f]{6}$/i),
        home: code,
        patterns: z.array(z.string()).min(1),
        stock: z.number().int().positive(),
      }),
    )
    .length(9),
  routes: z.array(
    z.object({
      id: z.string(),
      from: code,
      to: code,
      pattern: z.string(),
      circles: z.array(z.number().int().min(1).max(9)).min(1).max(3),
    }),
  ),
  routeCards: z.array(
    z.object({ id: z.number().int().positive(), pattern: z.string(), value: z.number().int().min(1).max(9) }),
  ),
});

export type BoardData = z.infer<typeof boardSchema>;

export interface City {
  code: string;
  name: string;
  lat: number;
  lon: number;
  x: number;
  y: number;
  label: string;
}
export interface Company {
  index: number;
  code: string;
  name: string;
  colour: string;
  home: number;
  patterns: string[];
  stock: number;
}
export interface Circle {
  index: number;
  route: number;
  n: number;
  value: number;
  x: number;
  y: number;
  label: string;
}
export interface Route {
  index: number;
  id: string;
  from: number;
  to: number;
  pattern: string;
  circles: number[];
  name: string;
}
export interface RouteCard {
  id: number;
  pattern: string;
  value: number;
}

export interface Board {
  name: string;
  markersPerCompany: number;
  scoringCards: number;
  handStock: number;
  handRoutes: number;
  openStock: number;
  patterns: { id: string; name: string }[];
  cities: City[];
  companies: Company[];
  routes: Route[];
  circles: Circle[];
  routeCards: RouteCard[];
  cardById: Map<number, RouteCard>;
  /** Routes at each city (by city index). */
  routesAt: number[][];
  width: number;
  mapHeight: number;
}

/** Map projection for the picture: equirectangular, squeezed by cos(38°). */
const LON_MIN = -126.5,
  LAT_MAX = 53.5,
  PX_PER_LON = 15.2;
const PX_PER_LAT = PX_PER_LON / Math.cos((38 * Math.PI) / 180);
export const MAP_WIDTH = 960;

function project(lat: number, lon: number): { x: number; y: number } {
  return { x: Math.round((lon - LON_MIN) * PX_PER_LON + 20), y: Math.round((LAT_MAX - lat) * PX_PER_LAT + 20) };
}

/** Checks the data against the schema and its own cross references; throws on the first problem. */
export function loadBoard(raw: unknown): Board {
  const data = boardSchema.parse(raw);
  const problems: string[] = [];
  const cityIndex = new Map(data.cities.map((c, i) => [c.code, i]));
  const patternIds = new Set(data.patterns.map((p) => p.id));
  if (cityIndex.size !== data.cities.length) problems.push('duplicate city code');
  const cities: City[] = data.cities.map((c) => ({ ...c, ...project(c.lat, c.lon) }));
  const companies: Company[] = data.companies.map((c, index) => {
    const home = cityIndex.get(c.home);
    if (home === undefined) problems.push(`${c.code}: unknown home ${c.home}`);
    for (const p of c.patterns) if (!patternIds.has(p)) problems.push(`${c.code}: unknown pattern ${p}`);
    return {
      index,
      code: c.code,
      name: c.name,
      colour: c.colour,
      home: home ?? 0,
      patterns: c.patterns,
      stock: c.stock,
    };
  });
  if (new Set(companies.map((c) => c.code)).size !== companies.length) problems.push('duplicate company code');
  if (new Set(companies.map((c) => c.home)).size !== companies.length) problems.push('two airlines share a home');
  const circles: Circle[] = [];
  const routesAt: number[][] = cities.map(() => []);
  const seen = new Set<string>();
  const routes: Route[] = data.routes.map((r, index) => {
    const from = cityIndex.get(r.from),
      to = cityIndex.get(r.to);
    if (from === undefined || to === undefined || from === to) problems.push(`${r.id}: bad cities`);
    if (!patternIds.has(r.pattern)) problems.push(`${r.id}: unknown pattern ${r.pattern}`);
    if (r.id !== `${r.from}-${r.to}`) problems.push(`${r.id}: id must be FROM-TO`);
    const key = [r.from, r.to].sort().join('-');
    if (seen.has(key)) problems.push(`${r.id}: two routes between the same cities`);
    seen.add(key);
    const a = cities[from ?? 0]!,
      b = cities[to ?? 0]!;
    const name = `${a.name}–${b.name}`;
    const ids = r.circles.map((value, n) => {
      const t = (n + 1) / (r.circles.length + 1);
      const c: Circle = {
        index: circles.length,
        route: index,
        n: n + 1,
        value,
        x: Math.round(a.x + (b.x - a.x) * t),
        y: Math.round(a.y + (b.y - a.y) * t),
        label: `${r.id}/${n + 1}`,
      };
      circles.push(c);
      return c.index;
    });
    routesAt[from ?? 0]!.push(index);
    routesAt[to ?? 0]!.push(index);
    return { index, id: r.id, from: from ?? 0, to: to ?? 0, pattern: r.pattern, circles: ids, name };
  });
  for (const c of companies) {
    if (!routesAt[c.home]!.some((ri) => c.patterns.includes(routes[ri]!.pattern)))
      problems.push(`${c.code}: no route from home it may fly`);
  }
  const cardIds = new Set(data.routeCards.map((c) => c.id));
  if (cardIds.size !== data.routeCards.length) problems.push('duplicate route card id');
  for (const c of data.routeCards) if (!patternIds.has(c.pattern)) problems.push(`route card ${c.id}: unknown pattern`);
  if (problems.length) throw new Error(`Airlines board data: ${problems.join('; ')}`);
  const mapHeight = Math.max(...cities.map((c) => c.y)) + 40;
  return {
    name: data.name,
    markersPerCompany: data.markersPerCompany,
    scoringCards: data.scoringCards,
    handStock: data.handStock,
    handRoutes: data.handRoutes,
    openStock: data.openStock,
    patterns: data.patterns,
    cities,
    companies,
    routes,
    circles,
    routeCards: data.routeCards,
    cardById: new Map(data.routeCards.map((c) => [c.id, c])),
    routesAt,
    width: MAP_WIDTH,
    mapHeight,
  };
}

export const board: Board = loadBoard(boardJson);

const companyIndex = new Map(board.companies.map((c) => [c.code, c.index]));

/** Company index by code (case-insensitive), or undefined. */
export function companyByCode(code: string): number | undefined {
  return companyIndex.get(code) ?? companyIndex.get(code.toUpperCase());
}

/** Circle labels in both city orders and any case, to the circle index. */
const circleIndex = new Map<string, number>();
for (const r of board.routes) {
  const [a, b] = r.id.split('-');
  r.circles.forEach((ci, k) => {
    for (const sep of ['/', ':', '.', '#']) {
      circleIndex.set(`${a}-${b}${sep}${k + 1}`, ci);
      circleIndex.set(`${b}-${a}${sep}${k + 1}`, ci);
    }
  });
}

/** Circle index by its label "ORD-MSP/2" (either city order, case-insensitive), or undefined. */
export function circleByLabel(label: string): number | undefined {
  return circleIndex.get(label) ?? circleIndex.get(label.trim().toUpperCase());
}

export function circleText(ci: number): string {
  const c = board.circles[ci]!;
  const r = board.routes[c.route]!;
  return `${r.name} (circle ${c.n}, value ${c.value})`;
}

export function cardText(id: number): string {
  const c = board.cardById.get(id)!;
  return `${c.pattern} ${c.value}`;
}
