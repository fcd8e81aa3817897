import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { openDb } from "../../src/db/client.ts";
import type { NewUser } from "../../src/users/users.queries.ts";
import { toPublicUser } from "../../src/users/users.view.ts";
import { makeUser } from "../helpers/fixtures.ts";
import { DESKTOP, type E2E, ensureChromium, PHONE, shot, useE2E } from "./harness.ts";
import { storeSession } from "./page-checks.ts";

const skip = ensureChromium();
if (skip) console.warn(skip);

const NOTICE = /Le traitement peut prendre plusieurs minutes/;

/** A user written to the server's database and signed in in a new page, the way the SPA keeps a session. */
async function signedIn(e: E2E, size: { width: number; height: number }, values: Partial<NewUser>, scheme: "light" | "dark" = "light") {
  const db = openDb(join(e.dataDir, "unisson.db"));
  const { user, token } = await makeUser(db, new Date(), values);
  db.$client.close();
  const { page, errors } = await e.newPage(size);
  await page.emulateMedia({ colorScheme: scheme });
  await storeSession(page, token, toPublicUser(user, new Date()));
  await page.getByRole("button", { name: "Déconnexion" }).waitFor();
  return { page, errors };
}

/** How many rows the header's parts (logo, badges, status, name, buttons) sit on: parts that overlap vertically share a row. */
const headerRows = (page: Page) =>
  page.locator(".header-inner").evaluate((el) => {
    const parts = el.querySelectorAll(".brand, .header-status > *, .header-user > *");
    const boxes = [...parts].map((c) => c.getBoundingClientRect()).filter((r) => r.height > 0);
    boxes.sort((a, b) => a.top - b.top);
    let rows = 0;
    let bottom = Number.NEGATIVE_INFINITY;
    for (const r of boxes) {
      if (r.top >= bottom - 1) rows++;
      bottom = Math.max(bottom, r.bottom);
    }
    return rows;
  });

const dockHeight = (page: Page) => page.locator(".bottom-dock").evaluate((el) => el.getBoundingClientRect().height);

async function ask(page: Page) {
  await page.getByRole("textbox", { name: "Votre question" }).fill("Quelle est la capitale de la France ?");
  await page.getByRole("button", { name: "Lancer l'analyse" }).click();
}

describe.skipIf(!!skip)("e2e: reading an answer (issue 32)", () => {
  const world = useE2E();

  for (const scheme of ["light", "dark"] as const) {
    test(`phone, ${scheme}: a Pro user with extra requests; the notice during the run only; the answer keeps the room`, async () => {
      const e = world();
      // Slow enough for the run to be seen under way.
      e.fakes.control.setAll({ latencyMs: 1_500 });
      try {
        const { page, errors } = await signedIn(e, PHONE, { subscriptionType: "pro", planQueries: 30, extraQueries: 100, firstName: "Maximilienne" }, scheme);
        // Never "130/30 Pro".
        await expect(page.locator(".quota-text").textContent()).resolves.toBe("130 requêtes Pro");
        expect(await headerRows(page)).toBeLessThanOrEqual(2);
        await ask(page);
        await page.getByText(NOTICE).waitFor();
        await expect(page.getByText(NOTICE).textContent()).resolves.toContain("Si vous actualisez la page, la réponse vous attendra.");
        await shot(page, `run-notice-phone-${scheme}`, false);
        await page.getByText("Paris est la capitale de la France.").first().waitFor({ timeout: 20_000 });
        await page.locator(".message.type-final_response").waitFor();
        await page.waitForTimeout(900); // the smooth scroll settles
        // The run is over: its notice is gone with it.
        expect(await page.getByText(NOTICE).count()).toBe(0);
        // The answer names its sources without a bracket inside a bracket: "(Réponse A de GPT-4, ...)".
        const answer = (await page.locator(".message.type-final_response .markdown").first().textContent()) ?? "";
        expect(answer).toMatch(/\(Réponse [A-F] de [^()]+/);
        expect(answer).not.toMatch(/\([^()]*\(/);
        await shot(page, `reading-answer-phone-${scheme}`, false);
        // What is fixed at the bottom (referral offer and reply box) takes at most a fifth of the screen.
        expect(await dockHeight(page)).toBeLessThanOrEqual(PHONE.height / 5);
        expect(await page.getByRole("complementary", { name: "Votre code de parrainage" }).isVisible()).toBe(true);
        expect(await headerRows(page)).toBeLessThanOrEqual(2);
        // The reply box grows while one types in it, and only then.
        const box = page.getByRole("textbox", { name: "Votre message" });
        const before = await box.evaluate((el) => el.getBoundingClientRect().height);
        await box.fill("Et sa population ?");
        expect(await box.evaluate((el) => el.getBoundingClientRect().height)).toBeGreaterThan(before);
        await shot(page, `typing-reply-phone-${scheme}`, false);
        await box.fill("");
        await box.blur();
        expect(await box.evaluate((el) => el.getBoundingClientRect().height)).toBe(before);
        expect(errors).toEqual([]);
      } finally {
        e.fakes.control.reset();
      }
    }, 60_000);
  }

  test("desktop: the header on at most two rows, the dock within a fifth of the screen, no notice after the answer", async () => {
    const e = world();
    const { page, errors } = await signedIn(e, DESKTOP, { subscriptionType: "pro", planQueries: 30, extraQueries: 100 });
    await ask(page);
    await page.locator(".message.type-final_response").waitFor({ timeout: 20_000 });
    await page.waitForTimeout(900);
    expect(await page.getByText(NOTICE).count()).toBe(0);
    expect(await headerRows(page)).toBeLessThanOrEqual(2);
    expect(await dockHeight(page)).toBeLessThanOrEqual(DESKTOP.height / 5);
    await shot(page, "reading-answer-desktop", false);
    expect(errors).toEqual([]);
  }, 60_000);

  test("phone: the widest badges (a low quota's warning, a trial ending) keep the header on two rows", async () => {
    const e = world();
    for (const values of [
      { subscriptionType: "basic", planQueries: 2, firstName: "Marie-Antoinette" },
      { subscriptionType: "trial", planQueries: 3, trialEndsAt: new Date(Date.now() + 36 * 3600_000) },
      { subscriptionType: "pro", planQueries: 30, extraQueries: 9970 },
    ] satisfies Partial<NewUser>[]) {
      const { page } = await signedIn(e, PHONE, values);
      await page.getByText("6/6 IA disponibles").first().waitFor();
      expect(await headerRows(page)).toBeLessThanOrEqual(2);
      await shot(page, `header-${values.subscriptionType}-phone`, false);
      await page.close();
    }
  }, 60_000);

  test("a refused question reads its reason once", async () => {
    const e = world();
    e.fakes.control.moderation = { flagged: true, categories: ["violence"] };
    try {
      const { page } = await signedIn(e, PHONE, {});
      await ask(page);
      const alert = page.getByRole("alert").filter({ hasText: "Contenu Non Autorisé" });
      await alert.waitFor();
      const text = (await alert.textContent()) ?? "";
      expect(text.match(/utiles et constructives/g)).toHaveLength(1);
      expect(text.match(/reformuler/g)).toHaveLength(1);
      await shot(page, "refused-phone", false);
    } finally {
      e.fakes.control.reset();
    }
  }, 40_000);

  for (const [why, values] of [
    ["expired", { subscriptionType: "expired", planQueries: 0 }],
    ["no request left", { subscriptionType: "basic", planQueries: 0 }],
  ] as const) {
    test(`a blocked user (${why}) finds the pricing overlay open`, async () => {
      const { page } = await signedIn(world(), PHONE, values);
      await page.getByRole("dialog", { name: "Forfaits et abonnement" }).waitFor();
      await shot(page, `blocked-${why.replaceAll(" ", "-")}-phone`, false);
      await page.getByRole("button", { name: "Fermer" }).first().click();
      await page.getByRole("dialog").waitFor({ state: "detached" });
      await expect(page.getByRole("textbox", { name: "Votre question" }).isDisabled()).resolves.toBe(true);
    }, 40_000);
  }

  for (const [name, size] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    test(`${name}: a 402 at checkout shows the spec's alert, clear of the API-key box`, async () => {
      // No STRIPE_SECRET_KEY here: the server answers 402 to a checkout.
      const { page } = await signedIn(world(), size, {});
      await page.getByRole("button", { name: "Abonnement", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Forfaits et abonnement" });
      await dialog
        .getByRole("button", { name: /Choisir Basic/ })
        .first()
        .click();
      const alert = dialog.getByRole("alert");
      await expect(alert.textContent()).resolves.toBe("Problème de configuration de paiement. Contactez le support.");
      await page.waitForTimeout(400);
      await shot(page, `checkout-402-${name}`, false);
      const keys = dialog.getByRole("region", { name: "Clés d'API" });
      const [a, k] = [await alert.boundingBox(), await keys.boundingBox()];
      const overlap = a && k && a.y < k.y + k.height && k.y < a.y + a.height;
      expect(overlap).toBeFalsy();
    }, 40_000);
  }
});
