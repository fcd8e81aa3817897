/**
 * kill -9 at random moments, 20 times (CRASH_CYCLES), under write load:
 * `bun test/bench/crash.bench.ts` (part of `npm run bench`). The same rig as
 * the in-suite test (test/server/reliability/crash.test.ts, 3 cycles); here
 * it prints what each cycle wrote and what the checks found.
 */
import { checkDatabase, startCrashRig } from "../server/reliability/crash.harness.ts";

const CYCLES = Number(process.env.CRASH_CYCLES ?? 20);
const rig = await startCrashRig();
let failures = 0;
try {
  await rig.start();
  console.log(`\nkill -9 under write load, ${CYCLES} cycles\n`);
  console.log("| cycle | registrations 2xx | chats 2xx | answers 2xx | paid sessions | problems |");
  console.log("|---|---|---|---|---|---|");
  for (let i = 1; i <= CYCLES; i++) {
    await rig.loadThenKill();
    const t0 = performance.now();
    await rig.start();
    const restartMs = performance.now() - t0;
    await rig.settlePayments();
    const problems = checkDatabase(rig.dbFile, rig.ledger);
    failures += problems.length;
    const l = rig.ledger;
    const chats = [...l.chats.values()].reduce((n, m) => n + m.length, 0);
    console.log(
      `| ${i} | ${l.registered.size} | ${chats} | ${l.processed.size} | ${l.paid.size} | ${problems.length ? problems.join("; ") : `none (restart ${restartMs.toFixed(0)} ms)`} |`,
    );
  }
  console.log(`\n(cumulative counts) integrity_check ok, every 2xx present, no double charge: ${failures === 0 ? "yes" : `NO, ${failures} problems`}`);
} finally {
  await rig.stop();
}
process.exit(failures === 0 ? 0 : 1);
