// Builds rules/stephensons-rocket/data/board.json: a pointy-top hex map of
// England and Wales. Land hexes are those whose centre lies inside a rough
// coastline polygon (longitude/latitude of coastal places); every place sits
// on the hex that contains its true latitude/longitude.
// Run: npx tsx test/rules/stephensons-rocket/tools/build-board.ts
import { writeFileSync } from 'node:fs';

const HEX = Number(process.env.HEX ?? 0.15); // hex size (centre to corner) in degrees of latitude
const LAT0 = 55.9;
const LON0 = -5.8;
const KX = Math.cos((53 * Math.PI) / 180);

// [lat, lon], clockwise from Berwick.
const coast: [number, number][] = [
  [55.77, -2.0],
  [55.6, -1.7],
  [55.33, -1.58],
  [55.02, -1.42],
  [54.91, -1.37],
  [54.69, -1.21],
  [54.62, -1.06],
  [54.49, -0.61],
  [54.28, -0.4],
  [54.12, -0.08],
  [53.9, -0.15],
  [53.58, 0.11],
  [53.57, -0.08],
  [53.34, 0.26],
  [53.14, 0.34],
  [52.97, 0.05],
  [52.8, 0.3],
  [52.94, 0.49],
  [52.93, 1.3],
  [52.61, 1.73],
  [52.48, 1.75],
  [52.15, 1.6],
  [51.96, 1.35],
  [51.79, 1.15],
  [51.54, 0.71],
  [51.44, 0.76],
  [51.39, 1.39],
  [51.13, 1.31],
  [50.91, 0.98],
  [50.85, 0.57],
  [50.77, 0.28],
  [50.82, -0.14],
  [50.72, -0.79],
  [50.8, -1.09],
  [50.78, -1.5],
  [50.72, -1.88],
  [50.61, -1.96],
  [50.6, -2.45],
  [50.72, -2.94],
  [50.62, -3.41],
  [50.22, -3.64],
  [50.33, -4.14],
  [49.96, -5.2],
  [50.07, -5.71],
  [50.21, -5.48],
  [50.42, -5.08],
  [50.54, -4.94],
  [51.02, -4.52],
  [51.08, -4.2],
  [51.21, -4.12],
  [51.2, -3.48],
  [51.35, -2.98],
  [51.5, -2.7],
  [51.7, -2.5],
  [51.64, -2.67],
  [51.55, -2.99],
  [51.46, -3.17],
  [51.39, -3.27],
  [51.48, -3.7],
  [51.61, -3.94],
  [51.56, -4.33],
  [51.68, -4.16],
  [51.67, -4.7],
  [51.6, -4.93],
  [51.68, -5.17],
  [51.9, -5.31],
  [52.0, -4.98],
  [52.11, -4.66],
  [52.41, -4.08],
  [52.54, -4.05],
  [52.72, -4.05],
  [52.92, -4.13],
  [52.89, -4.42],
  [52.8, -4.71],
  [52.94, -4.52],
  [53.14, -4.28],
  [53.31, -4.63],
  [53.41, -4.34],
  [53.26, -4.09],
  [53.33, -3.83],
  [53.32, -3.49],
  [53.35, -3.32],
  [53.25, -3.13],
  [53.4, -3.1],
  [53.41, -3.0],
  [53.65, -3.01],
  [53.82, -3.05],
  [53.92, -3.01],
  [54.07, -2.87],
  [54.11, -3.23],
  [54.51, -3.63],
  [54.64, -3.56],
  [54.71, -3.5],
  [54.87, -3.39],
  [54.95, -3.05],
  [55.0, -3.07],
  [55.23, -2.58],
  [55.35, -2.48],
  [55.65, -2.25],
];

type Kind = 'start' | 'town' | 'city';
type Good = 'steel' | 'textiles' | 'brewing' | 'leather';
interface PlaceIn {
  id: string;
  name: string;
  kind: Kind;
  lat: number;
  lon: number;
  goods?: Good[];
}

const places: PlaceIn[] = [
  // start towns
  { id: 'london', name: 'London', kind: 'start', lat: 51.507, lon: -0.128 },
  { id: 'bristol', name: 'Bristol', kind: 'start', lat: 51.454, lon: -2.588 },
  { id: 'liverpool', name: 'Liverpool', kind: 'start', lat: 53.408, lon: -2.992 },
  { id: 'stockton', name: 'Stockton', kind: 'start', lat: 54.57, lon: -1.318 },
  { id: 'merthyr', name: 'Merthyr Tydfil', kind: 'start', lat: 51.746, lon: -3.378 },
  { id: 'hull', name: 'Hull', kind: 'start', lat: 53.745, lon: -0.337 },
  { id: 'norwich', name: 'Norwich', kind: 'start', lat: 52.63, lon: 1.297 },
  // cities with their goods
  {
    id: 'manchester',
    name: 'Manchester',
    kind: 'city',
    lat: 53.48,
    lon: -2.242,
    goods: ['textiles', 'textiles', 'steel'],
  },
  { id: 'birmingham', name: 'Birmingham', kind: 'city', lat: 52.486, lon: -1.89, goods: ['steel', 'steel', 'leather'] },
  { id: 'sheffield', name: 'Sheffield', kind: 'city', lat: 53.381, lon: -1.47, goods: ['steel', 'steel', 'brewing'] },
  {
    id: 'newcastle',
    name: 'Newcastle',
    kind: 'city',
    lat: 54.978,
    lon: -1.618,
    goods: ['steel', 'brewing', 'leather'],
  },
  {
    id: 'preston',
    name: 'Preston',
    kind: 'city',
    lat: 53.763,
    lon: -2.703,
    goods: ['textiles', 'textiles', 'leather'],
  },
  {
    id: 'nottingham',
    name: 'Nottingham',
    kind: 'city',
    lat: 52.954,
    lon: -1.158,
    goods: ['textiles', 'leather', 'brewing'],
  },
  {
    id: 'burton',
    name: 'Burton upon Trent',
    kind: 'city',
    lat: 52.806,
    lon: -1.643,
    goods: ['brewing', 'brewing', 'brewing'],
  },
  {
    id: 'northampton',
    name: 'Northampton',
    kind: 'city',
    lat: 52.24,
    lon: -0.903,
    goods: ['leather', 'leather', 'textiles'],
  },
  { id: 'swansea', name: 'Swansea', kind: 'city', lat: 51.621, lon: -3.944, goods: ['steel', 'steel', 'leather'] },
  { id: 'exeter', name: 'Exeter', kind: 'city', lat: 50.726, lon: -3.527, goods: ['leather', 'textiles', 'brewing'] },
  { id: 'reading', name: 'Reading', kind: 'city', lat: 51.454, lon: -0.978, goods: ['brewing', 'brewing', 'textiles'] },
  { id: 'carlisle', name: 'Carlisle', kind: 'city', lat: 54.892, lon: -2.932, goods: ['steel', 'textiles', 'leather'] },
  // railway towns
  { id: 'leeds', name: 'Leeds', kind: 'town', lat: 53.8, lon: -1.549 },
  { id: 'york', name: 'York', kind: 'town', lat: 53.96, lon: -1.082 },
  { id: 'crewe', name: 'Crewe', kind: 'town', lat: 53.099, lon: -2.44 },
  { id: 'swindon', name: 'Swindon', kind: 'town', lat: 51.568, lon: -1.772 },
  { id: 'lincoln', name: 'Lincoln', kind: 'town', lat: 53.234, lon: -0.538 },
  { id: 'peterborough', name: 'Peterborough', kind: 'town', lat: 52.573, lon: -0.241 },
  { id: 'cambridge', name: 'Cambridge', kind: 'town', lat: 52.205, lon: 0.119 },
  { id: 'oxford', name: 'Oxford', kind: 'town', lat: 51.752, lon: -1.258 },
  { id: 'gloucester', name: 'Gloucester', kind: 'town', lat: 51.865, lon: -2.238 },
  { id: 'shrewsbury', name: 'Shrewsbury', kind: 'town', lat: 52.708, lon: -2.754 },
  { id: 'chester', name: 'Chester', kind: 'town', lat: 53.193, lon: -2.893 },
  { id: 'lancaster', name: 'Lancaster', kind: 'town', lat: 54.047, lon: -2.801 },
  { id: 'plymouth', name: 'Plymouth', kind: 'town', lat: 50.376, lon: -4.143 },
  { id: 'brighton', name: 'Brighton', kind: 'town', lat: 50.822, lon: -0.137 },
  { id: 'southampton', name: 'Southampton', kind: 'town', lat: 50.91, lon: -1.404 },
  { id: 'dover', name: 'Dover', kind: 'town', lat: 51.128, lon: 1.308 },
  { id: 'ipswich', name: 'Ipswich', kind: 'town', lat: 52.057, lon: 1.148 },
  { id: 'aberystwyth', name: 'Aberystwyth', kind: 'town', lat: 52.415, lon: -4.083 },
  { id: 'bangor', name: 'Bangor', kind: 'town', lat: 53.227, lon: -4.129 },
  { id: 'carmarthen', name: 'Carmarthen', kind: 'town', lat: 51.857, lon: -4.306 },
  { id: 'scarborough', name: 'Scarborough', kind: 'town', lat: 54.283, lon: -0.4 },
  { id: 'coventry', name: 'Coventry', kind: 'town', lat: 52.408, lon: -1.51 },
];

const lines = [
  { id: 'LNWR', name: 'London & North Western Railway', colour: '#222222', start: 'london' },
  { id: 'GWR', name: 'Great Western Railway', colour: '#1b7f3b', start: 'bristol' },
  { id: 'LMR', name: 'Liverpool & Manchester Railway', colour: '#c62828', start: 'liverpool' },
  { id: 'SDR', name: 'Stockton & Darlington Railway', colour: '#ef8f00', start: 'stockton' },
  { id: 'TVR', name: 'Taff Vale Railway', colour: '#6a1b9a', start: 'merthyr' },
  { id: 'HSR', name: 'Hull & Selby Railway', colour: '#1565c0', start: 'hull' },
  { id: 'NR', name: 'Norfolk Railway', colour: '#795548', start: 'norwich' },
];

function project(lat: number, lon: number): [number, number] {
  return [(lon - LON0) * KX, LAT0 - lat];
}
function toAxial(x: number, y: number): [number, number] {
  const q = ((Math.sqrt(3) / 3) * x - y / 3) / HEX;
  const r = ((2 / 3) * y) / HEX;
  // cube rounding
  const s = -q - r;
  let rq = Math.round(q),
    rr = Math.round(r),
    rs = Math.round(s);
  const dq = Math.abs(rq - q),
    dr = Math.abs(rr - r),
    ds = Math.abs(rs - s);
  if (dq > dr && dq > ds) rq = -rr - rs;
  else if (dr > ds) rr = -rq - rs;
  return [rq, rr];
}
function centre(q: number, r: number): [number, number] {
  return [HEX * Math.sqrt(3) * (q + r / 2), HEX * 1.5 * r];
}
const polygon = coast.map(([lat, lon]) => project(lat, lon));
function inside(x: number, y: number): boolean {
  let hit = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]!,
      [xj, yj] = polygon[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) hit = !hit;
  }
  return hit;
}

const land = new Map<string, [number, number]>();
for (let r = -5; r < 60; r++)
  for (let q = -40; q < 60; q++) {
    const [x, y] = centre(q, r);
    if (inside(x, y)) land.set(`${q},${r}`, [q, r]);
  }
const placed = new Map<string, string>();
const outPlaces = [];
for (const p of places) {
  const [q, r] = toAxial(...project(p.lat, p.lon));
  const key = `${q},${r}`;
  if (placed.has(key)) {
    console.error(`collision: ${p.id} with ${placed.get(key)}`);
    continue;
  }
  placed.set(key, p.id);
  land.set(key, [q, r]);
  outPlaces.push({ ...p, q, r });
}
const rows = [...land.values()].map(([, r]) => r);
const minR = Math.min(...rows);
const cols = [...land.values()].map(([q, r]) => q + (r - (r & 1)) / 2);
const minC = Math.min(...cols);
const label = (q: number, r: number) => `${String.fromCharCode(65 + r - minR)}${q + (r - (r & 1)) / 2 - minC + 1}`;
const hexes = [...land.values()]
  .sort((a, b) => a[1] - b[1] || a[0] - b[0])
  .map(([q, r]) => ({ id: label(q, r), q, r }));
const board = {
  name: 'England and Wales',
  projection: { lat0: LAT0, lon0: LON0, xScale: Number(KX.toFixed(6)), hexSize: HEX },
  hexes,
  places: outPlaces.map((p) => ({
    id: p.id,
    name: p.name,
    kind: p.kind,
    lat: p.lat,
    lon: p.lon,
    hex: label(p.q, p.r),
    ...(p.goods ? { goods: p.goods } : {}),
  })),
  lines,
};
const outPath = process.argv[2] ?? 'rules/stephensons-rocket/data/board.json';
writeFileSync(outPath, `${JSON.stringify(board, null, 1)}\n`);
console.log(`hexes ${hexes.length}, places ${outPlaces.length}`);
