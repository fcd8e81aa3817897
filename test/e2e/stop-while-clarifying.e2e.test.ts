import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { openDb } from "../../src/db/client.ts";
import { DESKTOP, ensureChromium, PHONE, registerThroughUi, shot, useE2E } from "./harness.ts";
import { askInPage } from "./page-checks.ts";

const skip = ensureChromium();
if (skip) console.warn(skip);

const QUESTION = "Quel est le meilleur placement pour mon épargne ?";

const LATEST = "(SELECT max(id) FROM conversations)";

/** What the stop left in the database: the latest conversation's message types, and its runs. */
function leftBehind(dataDir: string) {
  const db = openDb(join(dataDir, "unisson.db"));
  try {
    const types = db.$client.query(`SELECT message_type AS t FROM messages WHERE conversation_id = ${LATEST} ORDER BY id`).all() as Array<{ t: string | null }>;
    const runs = db.$client.query(`SELECT count(*) AS n FROM processing_runs WHERE conversation_id = ${LATEST}`).get() as { n: number };
    return { types: types.map((r) => r.t), runs: runs.n };
  } finally {
    db.$client.close();
  }
}

describe.skipIf(!!skip)("e2e: « Arrêter » from the moment the question is sent (issue 43)", () => {
  const world = useE2E();

  for (const [size, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    test(`${size}: « Arrêter » while the clarifier decides drops the run; the turn ends stopped, nothing charged`, async () => {
      const e = world();
      e.fakes.control.reset();
      // The clarifier never decides (its own 5 s limit would end it) and the models never answer: only « Arrêter » ends it.
      e.fakes.control.setAll({ fail: "hang", failOn: ["answer", "clarification"] });
      const { page, errors } = await e.newPage(viewport);
      await registerThroughUi(page, { first: "Léo", last: "Attente", email: `leo.clarify.${size}@example.fr`, password: "Nuage-Bleu-42" });
      await askInPage(page, QUESTION);
      const stop = page.getByRole("button", { name: "Arrêter l'analyse en cours" });
      await stop.waitFor({ timeout: 4_000 });
      await shot(page, `stop-while-clarifying-${size}`);
      await stop.click();
      await page.getByText("Réponse arrêtée par l'utilisateur").waitFor({ timeout: 4_000 });
      await expect(stop.count()).resolves.toBe(0);
      await shot(page, `stopped-while-clarifying-${size}`);
      // Dropped while /chat decided: no run row at all (a run stopped after /chat answered stays, failed RUN_STOPPED).
      expect(leftBehind(e.dataDir)).toEqual({ types: [null, "stopped_response"], runs: 0 });
      expect(errors).toEqual([]);
    });
  }
});
