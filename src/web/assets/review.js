// @ts-check
// Puzzles that come back when forgotten: the trainer's spaced repetition, by SuperMemo 2
// (P. Wozniak, 1990, the schedule Anki and lichess's puzzle replays descend from), with the
// trainer's answers as its grades. A puzzle enters the schedule when it is answered wrong (a
// puzzle answered right at once needs no review). Each answer to it then:
//
// - wrong (grade 1): back to the start, due again in 1 day; the ease is kept;
// - right (grade 4, "correct after some hesitation"): the n-th right answer in a row sets the
//   interval to 1 day (n = 1), 6 days (n = 2), then the last interval times the ease; the ease
//   changes by 0.1 - (5 - q)(0.08 + (5 - q) 0.02), which is 0 for grade 4, and never falls
//   below 1.3.
//
// The schedule is a map from puzzle name to { repetitions, interval (days), ease, due (ms),
// last (ms) }, kept with the learner's rating and exported with the history. Pure functions:
// `tests/browser/review_test.mjs` checks them.

export const DAY_MS = 24 * 60 * 60 * 1000;
export const START_EASE = 2.5;
export const MIN_EASE = 1.3;
const WRONG = 1;
const RIGHT = 4;

/**
 * The schedule entry of a puzzle after an answer at time `now` (ms): `entry` is its entry before
 * (undefined when it is not scheduled). Undefined when nothing is to be scheduled: a right answer
 * to a puzzle that was never missed.
 */
export function reviewed(entry, correct, now) {
  if (!entry && correct) return undefined;
  const before = entry || { repetitions: 0, interval: 0, ease: START_EASE };
  if (!correct) {
    return { repetitions: 0, interval: 1, ease: before.ease, due: now + DAY_MS, last: now, grade: WRONG };
  }
  const repetitions = before.repetitions + 1;
  const interval = repetitions === 1 ? 1 : repetitions === 2 ? 6 : Math.round(before.interval * before.ease);
  const q = RIGHT;
  const ease = Math.max(MIN_EASE, before.ease + (0.1 - (5 - q) * (0.08 + (5 - q) * 0.02)));
  return { repetitions, interval, ease, due: now + interval * DAY_MS, last: now, grade: RIGHT };
}

/** The names of the puzzles due at `now`, the longest overdue first (then by name). */
export function due(schedule, now) {
  return Object.entries(schedule || {})
    .filter(([, e]) => e && Number.isFinite(e.due) && e.due <= now)
    .sort((a, b) => a[1].due - b[1].due || a[0].localeCompare(b[0]))
    .map(([name]) => name);
}

/** Two schedules as one (an imported history and the browser's): each puzzle's latest entry. */
export function merged(a, b) {
  const out = { ...(a || {}) };
  for (const [name, entry] of Object.entries(b || {})) {
    if (!valid(entry)) continue;
    if (!valid(out[name]) || entry.last > out[name].last) out[name] = entry;
  }
  return out;
}

/** Whether `entry` is a schedule entry (a saved or imported file may hold anything). */
export function valid(entry) {
  return !!entry && typeof entry === "object"
    && ["repetitions", "interval", "ease", "due", "last"].every(k => Number.isFinite(entry[k]));
}
