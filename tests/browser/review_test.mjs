// Unit tests of the trainer's spaced repetition (src/web/assets/review.js): the SuperMemo 2
// schedule, step by step, against the intervals its definition gives. Run by tests/browser.rs
// (`node tests/browser/review_test.mjs`).
import assert from "node:assert/strict";
import fs from "node:fs";

// Loaded as a module whatever this node makes of a `.js` file outside a package of modules.
const source = fs.readFileSync(new URL("../../src/web/assets/review.js", import.meta.url));
const { reviewed, due, merged, valid, DAY_MS, START_EASE, MIN_EASE } =
  await import(`data:text/javascript;base64,${source.toString("base64")}`);

const t0 = Date.UTC(2026, 10, 27, 12, 0, 0);

// A right answer to a puzzle never missed schedules nothing.
assert.equal(reviewed(undefined, true, t0), undefined);

// A miss: due again in a day, at the start of its repetitions.
let e = reviewed(undefined, false, t0);
assert.deepEqual(e, { repetitions: 0, interval: 1, ease: START_EASE, due: t0 + DAY_MS, last: t0, grade: 1 });
assert.deepEqual(due({ p: e }, t0 + DAY_MS - 1), [], "not due before its day");
assert.deepEqual(due({ p: e }, t0 + DAY_MS), ["p"], "due on its day");

// Then right every time: 1, 6, 15, 38, 95 days (6 x 2.5 = 15, 15 x 2.5 = 37.5 -> 38, ...).
let now = e.due;
const intervals = [];
for (let i = 0; i < 5; i++) {
  e = reviewed(e, true, now);
  intervals.push(e.interval);
  assert.equal(e.due, now + e.interval * DAY_MS);
  assert.equal(e.ease, START_EASE, "grade 4 keeps the ease");
  now = e.due;
}
assert.deepEqual(intervals, [1, 6, 15, 38, 95]);

// A miss in the middle starts over, keeping the ease.
const missed = reviewed(e, false, now);
assert.equal(missed.repetitions, 0);
assert.equal(missed.interval, 1);
assert.equal(missed.ease, e.ease);

// The ease never falls below its floor, whatever an entry says.
const low = reviewed({ repetitions: 3, interval: 10, ease: 1.0, due: 0, last: 0 }, true, t0);
assert.ok(low.ease >= MIN_EASE);

// The longest overdue first, then by name; entries in the future wait.
const schedule = {
  b: { repetitions: 0, interval: 1, ease: 2.5, due: t0 - 10, last: 0 },
  a: { repetitions: 0, interval: 1, ease: 2.5, due: t0 - 10, last: 0 },
  c: { repetitions: 0, interval: 1, ease: 2.5, due: t0 - 99, last: 0 },
  d: { repetitions: 0, interval: 1, ease: 2.5, due: t0 + 1, last: 0 },
};
assert.deepEqual(due(schedule, t0), ["c", "a", "b"]);
assert.deepEqual(due(undefined, t0), []);

// Merging keeps each puzzle's latest entry and drops what is not an entry.
const older = { p: { repetitions: 1, interval: 1, ease: 2.5, due: 5, last: 1 } };
const newer = { p: { repetitions: 2, interval: 6, ease: 2.5, due: 9, last: 2 }, q: { nonsense: true } };
assert.deepEqual(merged(older, newer), { p: newer.p });
assert.deepEqual(merged(newer, older).p, newer.p);
assert.ok(!valid({ due: 1 }) && valid(older.p));

// A long random sequence of answers: due is always after the answer, intervals grow while the
// answers are right and return to 1 on a miss.
let seed = 7;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
let entry;
now = t0;
for (let i = 0; i < 2000; i++) {
  const correct = random() < 0.7;
  const before = entry;
  entry = reviewed(entry, correct, now);
  if (!before && correct) { assert.equal(entry, undefined); continue; }
  assert.ok(entry.due > now && entry.last === now);
  if (!correct) assert.equal(entry.interval, 1);
  else if (before.repetitions >= 2) assert.ok(entry.interval >= before.interval);
  now += Math.floor(random() * 3 * DAY_MS);
}
console.log("review schedule: ok");
