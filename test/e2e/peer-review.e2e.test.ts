import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { updateSettings } from "../../src/council/council.store.ts";
import { openDb } from "../../src/db/client.ts";
import { toPublicUser } from "../../src/users/users.view.ts";
import { makeUser } from "../helpers/fixtures.ts";
import { DESKTOP, type E2E, ensureChromium, PHONE, shot, useE2E } from "./harness.ts";
import { storeSession } from "./page-checks.ts";

const skip = ensureChromium();
if (skip) console.warn(skip);

/** The council's peer review turned on in the server's database, and a signed-in Pro user's page. */
async function signedInWithReview(e: E2E, size: { width: number; height: number }) {
  const db = openDb(join(e.dataDir, "unisson.db"));
  await updateSettings(db, { peerReview: true });
  const { user, token } = await makeUser(db, new Date(), { subscriptionType: "pro", planQueries: 30 });
  db.$client.close();
  const { page, errors } = await e.newPage(size);
  await storeSession(page, token, toPublicUser(user, new Date()));
  await page.getByRole("button", { name: "Déconnexion" }).waitFor();
  return { page, errors };
}

describe.skipIf(!!skip)("e2e: the peer ranking beside an answer (issue 35, « Délibération »)", () => {
  const world = useE2E();

  for (const [name, size] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    test(`${name}: « Classement par les pairs » lists the six answers by average rank and names the member that did not rank`, async () => {
      const e = world();
      e.fakes.control.set("sonarPro", { fail: 500, failOn: ["ranking"] });
      // One slow ranker: the deliberation is seen under way, and the others do not wait for it.
      e.fakes.control.set("claudeOpus", { rankingLatencyMs: 2_500 });
      try {
        const { page, errors } = await signedInWithReview(e, size);
        await page.getByRole("textbox", { name: "Votre question" }).fill("Quelle est la capitale de la France ?");
        await page.getByRole("button", { name: "Lancer l'analyse" }).click();
        await page.getByText("Délibération : chaque IA classe les réponses des autres…").waitFor();
        await page.waitForTimeout(300);
        await shot(page, `peer-deliberation-${name}`, false);
        const ranking = page.getByRole("region", { name: "Classement par les pairs" });
        await ranking.waitFor({ timeout: 20_000 });
        expect(await ranking.locator("li").count()).toBe(6);
        expect(await ranking.locator("li").first().textContent()).toContain("Réponse A");
        expect(await ranking.locator("li").first().textContent()).toContain("rang moyen 1 ·");
        expect(await ranking.textContent()).toContain("Sonar Pro n'a pas classé les réponses : erreur du fournisseur");
        expect(await ranking.textContent()).toContain("Claude Opus 4.1 n'a pas classé les réponses : non attendu, les autres avaient déjà classé.");
        await ranking.scrollIntoViewIfNeeded();
        await page.waitForTimeout(500); // the smooth scroll settles
        await shot(page, `peer-ranking-${name}`, false);
        // Nothing of the ranking spills past the screen's width.
        const overflow = await ranking.evaluate((el) => el.scrollWidth - el.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        expect(errors).toEqual([]);
      } finally {
        e.fakes.control.reset();
      }
    }, 60_000);
  }
});
