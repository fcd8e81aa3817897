import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { join } from "node:path";
import { openDb } from "../../src/db/client.ts";
import { toPublicUser } from "../../src/users/users.view.ts";
import { makeUser } from "../helpers/fixtures.ts";
import { checkA11y } from "./a11y-check.ts";
import { DESKTOP, type E2E, ensureChromium, PHONE, registerThroughUi, shot, useE2E } from "./harness.ts";
import { askInPage, storeSession } from "./page-checks.ts";

const skip = ensureChromium();
if (skip) console.warn(skip);

const QUESTION = "Quelle est la capitale de la France ?";
const EDITED = "Quelle est la capitale de l'Italie ?";
/** A long answer: the fakes write it in a dozen pieces, a stalled model only its first (a few sentences). */
const PARTLY_WRITTEN = Array.from({ length: 60 }, (_, i) => `Phrase ${i + 1} : Rome est la capitale de l'Italie.`).join(" ");

/** The page reloaded, then the conversation of `question` opened from the history. */
async function reopenAfterReload(page: Page, question: string) {
  await page.reload();
  await page.getByRole("tab", { name: "Historique" }).click();
  await page.locator(".history-item").filter({ hasText: question }).locator(".history-open").click();
}

/** The conversation's questions and answers as shown, first line of each. */
const shown = (page: Page) => page.locator(".message-list > li.message").allInnerTexts();

/** A Pro user with requests to spare, signed in in the page (the quota badge stays the plain one). */
async function signedInPro(e: E2E, viewport: typeof PHONE, email: string) {
  const db = openDb(join(e.dataDir, "unisson.db"));
  const { user, token } = await makeUser(db, new Date(), { email, subscriptionType: "pro", planQueries: 30 });
  db.$client.close();
  const opened = await e.newPage(viewport);
  await storeSession(opened.page, token, toPublicUser(user, new Date()));
  return opened;
}

describe.skipIf(!!skip)("e2e: Arrêter, edit and ask again, Nouvelle réponse, versions", () => {
  const world = useE2E();

  for (const [size, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    test(`${size}: « Arrêter » stops the run; the stopped answer is labelled; the next question is answered`, async () => {
      const e = world();
      e.fakes.control.reset();
      // Three models never answer (the server's availability probes still get theirs): only « Arrêter » ends the run.
      e.fakes.control.setAll({ fail: "hang", failOn: ["answer"] });
      e.fakes.control.set("gpt4", { fail: null });
      e.fakes.control.set("claudeHaiku", { fail: null });
      // Mistral Large writes its first words, then nothing more: stopped while writing.
      e.fakes.control.set("mistralLarge", { fail: "stall", answer: PARTLY_WRITTEN });
      const { page, errors } = await e.newPage(viewport);
      await registerThroughUi(page, { first: "Léa", last: "Arrêt", email: `lea.stop.${size}@example.fr`, password: "Nuage-Bleu-42" });
      await askInPage(page, QUESTION);
      await page.locator(".live-model.state-answered").nth(1).waitFor({ timeout: 15_000 });
      await page.getByRole("region", { name: "Réponse de Mistral Large en cours d'écriture" }).waitFor({ timeout: 5_000 });
      const stop = page.getByRole("button", { name: "Arrêter l'analyse en cours" });
      await shot(page, `steer-running-${size}`);
      await stop.click();
      await page.getByText("Réponse arrêtée par l'utilisateur").waitFor({ timeout: 5_000 });
      await expect(stop.count()).resolves.toBe(0);
      // What Mistral Large had written stays, labelled as stopped, in the conversation and once reopened after a reload.
      const stoppedText = page.getByRole("region", { name: "Réponse de Mistral Large, arrêtée pendant la rédaction" });
      for (const when of ["stopped", "reloaded"]) {
        if (when === "reloaded") await reopenAfterReload(page, QUESTION);
        await stoppedText.waitFor({ timeout: 10_000 });
        await expect(stoppedText.innerText()).resolves.toContain("Phrase 1 : Rome");
        await expect(stoppedText.getByText("Arrêté pendant la rédaction").isVisible()).resolves.toBe(true);
        await shot(page, `steer-${when}-${size}`);
      }
      await checkA11y(page, `stopped-${size}`);
      expect(e.fakes.control.abortedCalls("answer").length).toBeGreaterThanOrEqual(4);

      e.fakes.control.reset();
      await page.getByRole("textbox", { name: "Votre message" }).fill(EDITED);
      await page.getByRole("textbox", { name: "Votre message" }).press("Enter");
      await page.locator(".final-answer").first().waitFor({ timeout: 20_000 });
      expect(errors).toEqual([]);
    }, 60_000);

    test(`${size}: edit the last question, « Nouvelle réponse », and switch between versions 1/3, 2/3, 3/3`, async () => {
      const e = world();
      e.fakes.control.reset();
      const { page, errors } = await signedInPro(e, viewport, `noe.versions.${size}@example.fr`);
      await askInPage(page, QUESTION);
      await page.locator(".final-answer").first().waitFor({ timeout: 20_000 });

      await page.getByRole("button", { name: "Modifier la question et la reposer" }).click();
      await page.getByRole("textbox", { name: "Question modifiée" }).fill(EDITED);
      await shot(page, `steer-editing-${size}`);
      await page.getByRole("button", { name: "Reposer la question" }).click();
      await page.locator(".final-answer").first().waitFor({ timeout: 20_000 });
      await page.getByText("2/2").waitFor();
      await checkA11y(page, `versions-${size}`);
      expect((await shown(page))[0]).toContain(EDITED);

      e.fakes.control.synthesis = () => "## Réponse consolidée\nUne autre réponse : Rome.\n## Points de consensus\nTout.\n## Divergences\nAucune.";
      await page.getByRole("button", { name: "Obtenir une nouvelle réponse à la même question" }).click();
      await page.getByText("3/3").waitFor({ timeout: 20_000 });
      await page.getByText("Une autre réponse : Rome.").waitFor({ timeout: 20_000 });
      await shot(page, `steer-versions-${size}`);

      await page.getByRole("button", { name: "Version précédente" }).click();
      await page.getByText("2/3").waitFor();
      await page.getByRole("button", { name: "Version précédente" }).click();
      await page.getByText("1/3").waitFor();
      expect((await shown(page))[0]).toContain(QUESTION);
      await shot(page, `steer-version-1-${size}`);
      expect(errors).toEqual([]);
    }, 90_000);
  }
});
