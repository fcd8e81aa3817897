// Module state: per user, the uploads this process is reading from the network and checking right now, and those waiting.
const gates = new Map<number, { active: number; waiting: Array<() => void> }>();

/** Uploads of one user handled at once: a person sends a few; a script's sixty wait their turn. */
const PER_USER = 2;

/**
 * A macrotask boundary. A slot freed hands over with a promise (a microtask),
 * and a body already received parses, types and stores without any real I/O
 * in between: sixty queued uploads then ran back to back in one microtask
 * drain, and /api/health waited 0.3-0.7 s for its turn (docs/BENCHMARKS.md,
 * "Hostile files"). Each upload now starts on a turn of its own, and its
 * commits (the count, the row) take turns of their own too: the two uploads
 * in hand each ran whole in one turn, 20-50 ms together ("fourth round").
 */
export function nextTurnOfTheLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Runs `work` (parsing the multipart body, checking and storing the file)
 * when fewer than PER_USER of this user's uploads are being handled. Sixty
 * uploads sent at once otherwise parse, decode and write side by side on the
 * one thread that answers everyone (/api/health took 4.6 s); waiting here,
 * an upload's body is not read yet, so it costs neither memory nor time.
 */
export async function inTurn<T>(userId: number, work: () => Promise<T>): Promise<T> {
  let gate = gates.get(userId);
  if (!gate) {
    gate = { active: 0, waiting: [] };
    gates.set(userId, gate);
  }
  // A slot freed is handed to the next waiting upload as it is (the count unchanged), so no newcomer slips in between.
  if (gate.active >= PER_USER) await new Promise<void>((resolve) => gate!.waiting.push(resolve));
  else gate.active++;
  try {
    await nextTurnOfTheLoop();
    return await work();
  } finally {
    const next = gate.waiting.shift();
    if (next) next();
    else if (--gate.active === 0) gates.delete(userId);
  }
}
