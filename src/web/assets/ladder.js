// @ts-check
/**
 * The engine's ladder of levels, weakest first, for the level picker: each level's name, words
 * and Elo over the greedy player as `cathedral ladder` measured it (docs/engine.md, "The ladder
 * of levels"). The engine's own table is src/cathedral/engine/ladder.rs; a test in
 * src/web/assets.rs keeps the two the same.
 */
export const LADDER = [
  { level: 1, name: "beginner", summary: "a beginner: misses captures, fills its own territory", elo: -74 },
  { level: 2, name: "novice", summary: "a novice: often misses a capture or a threat", elo: 61 },
  { level: 3, name: "casual", summary: "a casual player: sees one move ahead, sometimes leaves a wall open", elo: 324 },
  { level: 4, name: "club", summary: "a club player: sees the reply, still slips", elo: 557 },
  { level: 5, name: "strong club", summary: "a strong club player: reads a few moves, rarely slips", elo: 732 },
  { level: 6, name: "expert", summary: "an expert: the engine at 5,000 nodes, no slips", elo: 890 },
  { level: 7, name: "master", summary: "a master: the engine at 10,000 nodes", elo: 1023 },
  { level: 8, name: "engine 20k", summary: "the engine at 20,000 nodes", elo: 1148 },
  { level: 9, name: "engine 50k", summary: "the engine at 50,000 nodes, without the solver", elo: 1299 },
  { level: 10, name: "full strength", summary: "full strength: the whole budget and the exact solver", elo: 1499 },
];
