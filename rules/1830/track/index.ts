// 1830 map module: the board (tiles and station tokens), tile lays, tokens,
// routes and revenue, the route suggestion, 18xx.games conversions, the SVG map.
//
// Everything here is pure: no I/O, no clock, plain-JSON state. Functions that
// change the board validate completely first and throw RuleError (rules/types)
// with a message in words, leaving the board untouched; then they mutate the
// board passed in and return what happened (cost, etc.).
//
// API (names are stable; the other 1830 files program against them):
//
// Types (./types):
//   Board            plain JSON: { tiles: {hex: {tile, copy, rotation}}, tokens: {hex: string[][]},
//                    homes: {corp: {hex, city|null}} (home reservations still open), pending: PendingToken[] }
//                    tokens[hex][cityIndex] = corporations with a station there, in slot order.
//                    Keep it inside the game state (e.g. state.board); it is plain JSON.
//   PhaseName        '2' | '3' | '4' | '5' | '6' | 'D'
//   TileLay          { hex: string, tile: string ("57"), rotation: 0..5, copy?: number }
//                    rotation uses 18xx.games numbering (edge e of the tile goes to (e + rotation) % 6).
//   LayContext       { corp, phase, layUsed: boolean (the corporation already used its one tile action this OR),
//                      playerPrivates: string[] (private syms still owned by players: their hexes are blocked),
//                      via?: 'CS' | 'DH' (a private owned by corp whose ability is used), cash?: number,
//                      reach?: Reach (reachOf(board, corp) for this board, if the caller holds it) }
//                    CS: free of the turn's tile action (consumesLay false), no connection needed, B20 only, tiles 3/4/58.
//                    DH: tile 57 in F16 as the turn's tile action, no connection needed; then placeToken with via 'DH'.
//   LayResult        { cost: number (terrain cost to pay), upgrade: boolean, consumesLay: boolean, oldTile: string|null }
//   TokenPlace       { hex: string, city: number }
//   TokenContext     { corp, tokensLeft: number (charter tokens still unplaced), via?: 'DH', reach?: Reach }
//                    the caller charges the cost (40 for the second station, 100 after); the D&H station is free and
//                    extra (18xx.games adds a token for it), so tokensLeft is not needed with via 'DH'.
//   RouteInput       { train: string, connections: string[][] }  each connection: hex chain from a stop to the next
//                    stop (like 18xx.games run_routes); optional `nodes: string[]` ("E11-1": hex-nodeIndex) to pin stops.
//   TrainInput       { id: string, distance: number }  (D trains: distance 999 = unlimited)
//   RouteResult      { train, revenue, stops: string[] (node ids "HEX-i"), hexes: string[] }
//
// Board (./board):
//   newBoard(): Board                           preprinted map, no tokens
//   tileAt(board, hex): {tile, rotation, copy}|null   laid tile, null = preprinted
//   tilesInSupply(board): Record<tile, number>  copies left per tile number
//   cityCount(board, hex): number
//   tokenHexes(board, corp): string[]           hexes where the corporation has stations
//
// Tile lays (./lay):
//   checkTileLay(board, ctx, lay): LayResult    throws RuleError when illegal
//   layTile(board, ctx, lay): LayResult         check, then apply (tokens move with the upgrade)
//   legalTileLays(board, ctx, limit?): TileLay[]  every legal lay (for moves/hints; rotations giving the same track once)
//   tileLayOptions(board, ctx): {hex: {tile: rotations[]}}   the same grouped for a click-a-hex move form
//
// Tokens (./tokens):
//   checkToken(board, ctx, place): void          throws RuleError (reachability, open slot, one per hex, home reservations)
//   placeToken(board, ctx, place): void
//   legalTokens(board, ctx): TokenPlace[]
//   hasTokenSpot(board, ctx): boolean            legalTokens(board, ctx).length > 0, without building the list
//   homeTokenChoices(board, corp): number[]      cities of the home hex a corporation may choose (Erie: several when E11 has track)
//   placeHomeToken(board, corp, city?): void     the free home token (city required when homeTokenChoices has > 1 entry)
//                    call it when the corporation first operates; a place_token of a corporation whose home is not
//                    yet placed (hasHomeToken false) is its home choice (Erie on a tiled E11).
//   hasHomeToken(board, corp): boolean
//   placePendingToken(board, corp, place)        put back a token lifted when a multi-city tile was laid on its hex
//                    (board.pending lists them; 18xx.games lets the operating corporation choose the city)
//
// Routes (./routes, ./suggest):
//   runRoutes(board, corp, phase, trains, routes): { revenue, routes: RouteResult[] }   validates all, throws RuleError
//   suggestRoutes(board, corp, phase, trains): { revenue, routes: RouteInput[], details: RouteResult[] }
//                    the best set of routes for all trains together (exact; routes carry `nodes`)
//   reachOf(board, corp) (./graph): Reach   what the network touches: .edges {hex: edge bit mask} and .nodes
//                    Set<"HEX-i"> (both built on first use), .nodeCount, .reaches(hex, city), .edgesOf(hex), .hexes().
//                    Pass it as ctx.reach to layTile/checkTileLay/legalTileLays/placeToken/legalTokens/hasTokenSpot
//                    when you hold it for the board as it is (it is not recomputed then).
//
// 18xx.games conversions (./convert), pure, for the importer:
//   layTileFrom18xx({hex, tile: "57-1", rotation}): TileLay
//   placeTokenFrom18xx(board, {city: "57-1-0", slot}): TokenPlace
//   routesFrom18xx({routes: [{train, connections, nodes?}]}): RouteInput[]
//   routesFromText("2-0: I15-J14; 4-0: I19-I17-I15-J14-K13"): RouteInput[]   typed routes (cut at their stops)
//   routesToText(routes): string                 the same notation for people
//
// SVG (./svg):
//   mapSvg(board, opts?: { phase?, colors?: Record<corp, {fill, text}>, standalone?: boolean, width?: number,
//                          routes?: RouteInput[] (drawn over the map), highlight?: string[] (hexes outlined) }): string
//     the map as an SVG document (standalone true, default) or a <g> fragment; each hex is <g data-hex="F20">.
//   tileSvg(tile, rotation, size?): string       one tile turned, a small standalone SVG (for picking/turning a tile)
//
// Data: ../data/map.json (hexes) and ../data/tiles.json (manifest), zod-checked at load in ./data.
export * from './types.ts';
export * from './board.ts';
export * from './lay.ts';
export * from './tokens.ts';
export * from './routes.ts';
export * from './suggest.ts';
export * from './convert.ts';
export * from './svg.ts';
export { reachOf, Reach } from './graph.ts';
