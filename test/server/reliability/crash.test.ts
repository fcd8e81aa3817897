import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { checkDatabase, type CrashRig, startCrashRig } from "./crash.harness.ts";

/**
 * kill -9 under write load (registrations, chats with final processing,
 * payments), CRASH_CYCLES times (3 here; `npm run bench` runs 20): after
 * each restart the database is whole, every 2xx is in it, no final
 * processing is left charged without an answer, and no payment is credited
 * twice, even when Stripe delivers and the client polls again.
 */
const CYCLES = Number(process.env.CRASH_CYCLES ?? 3);

describe("kill -9 under write load", () => {
  let rig: CrashRig;
  beforeAll(async () => {
    rig = await startCrashRig();
    await rig.start();
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  test(`${CYCLES} kills at random moments lose no 2xx'd write and charge nothing twice`, async () => {
    const problems: string[] = [];
    for (let i = 0; i < CYCLES; i++) {
      await rig.loadThenKill();
      await rig.start();
      await rig.settlePayments();
      problems.push(...checkDatabase(rig.dbFile, rig.ledger).map((p) => `cycle ${i + 1}: ${p}`));
    }
    expect(problems).toEqual([]);
    // The load really wrote: the check above had something to check.
    expect([rig.ledger.registered.size > 0, rig.ledger.processed.size > 0, rig.ledger.paid.size > 0]).toEqual([true, true, true]);
  }, 180_000);
});
