import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { openDb } from "../../src/db/client.ts";
import { toPublicUser } from "../../src/users/users.view.ts";
import { makeUser, TEST_PASSWORD } from "../helpers/fixtures.ts";
import { seedHistory } from "../helpers/history-seed.ts";
import { checkA11y } from "./a11y-check.ts";
import { DESKTOP, type E2E, PHONE, shot, useE2E } from "./harness.ts";
import { storeSession } from "./page-checks.ts";

const world = useE2E();
const CONVERSATIONS = 3_000;

/** A user with a long history, signed in in the page (the stored session the SPA reads at start). */
async function signedInWithHistory(e: E2E, size = PHONE, n = CONVERSATIONS) {
  const db = openDb(join(e.dataDir, "unisson.db"));
  const { user, token } = await makeUser(db, new Date());
  await seedHistory(db, user.id, n);
  db.$client.close();
  const { page, context, errors } = await e.newPage(size);
  await storeSession(page, token, toPublicUser(user, new Date()));
  await page.getByRole("tab", { name: "Historique" }).waitFor();
  return { page, context, errors, user };
}

async function slowCpu(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
}

const items = (page: Page) => page.locator(".history-item");

describe("history of 3,000 conversations on a phone at 4x CPU slowdown", () => {
  test("opens on the newest under date headings, searches, loads more while scrolling, DOM stays light, exports one", async () => {
    const { page, errors } = await signedInWithHistory(world());
    await slowCpu(page);
    const pages: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/api/unisson/history")) pages.push(new URL(r.url()).search);
    });
    await page.getByRole("tab", { name: "Historique" }).click();
    await items(page).first().waitFor();
    await expect(items(page).first().textContent()).resolves.toContain("Question 0 :");
    await page.getByRole("heading", { name: "Aujourd'hui" }).waitFor();
    expect(pages).toEqual(["?limit=50"]);
    await shot(page, "history-3000-phone", false);
    await checkA11y(page, "history tab");

    // Scroll down: the next pages come by cursor; the DOM keeps a screenful of rows.
    for (let i = 0; i < 40 && pages.length < 3; i++) {
      await page.mouse.wheel(0, 4000);
      await page.waitForTimeout(150);
    }
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages.slice(1).every((p) => /^\?limit=100&cursor=\d+\.\d+$/.test(p))).toBe(true);
    expect(await items(page).count()).toBeLessThan(60);
    const shown = (await items(page).allTextContents()).map((t) => Number(/Question (\d+) :/.exec(t)?.[1]));
    expect(Math.max(...shown)).toBeGreaterThan(100);
    await shot(page, "history-3000-scrolled-phone", false);

    // Search a word found only in one answer.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole("searchbox", { name: "Rechercher dans vos conversations" }).fill("réponse2345");
    await page.getByText("1 résultat, les plus pertinents d'abord").waitFor();
    await expect(items(page).count()).resolves.toBe(1);
    await expect(items(page).first().textContent()).resolves.toContain("Question 2345 :");
    await shot(page, "history-search-phone", false);
    await checkA11y(page, "history search");

    // Open it and export it as Markdown.
    await items(page).first().locator(".history-open").click();
    await page.getByText("réponse2345", { exact: false }).first().waitFor();
    await shot(page, "conversation-export-phone", false);
    await checkA11y(page, "conversation with export");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("group", { name: "Exporter la conversation" }).getByRole("button", { name: "Markdown" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^unisson-conversation-\d+\.md$/);
    const md = readFileSync((await download.path())!, "utf8");
    expect(md).toContain("## Question");
    expect(md).toContain("réponse2345");
    expect(md).toContain("**Modèles consultés :** GPT-4, Claude Opus 4.1, Mistral Large (synthèse : GPT-4)");
    expect(errors).toEqual([]);
  }, 120_000);

  test("desktop: the same history reads well at 1280x800", async () => {
    const { page, errors } = await signedInWithHistory(world(), DESKTOP, 200);
    await page.getByRole("tab", { name: "Historique" }).click();
    await items(page).first().waitFor();
    await shot(page, "history-desktop-grouped", false);
    expect(errors).toEqual([]);
  }, 60_000);
});

describe("Mon compte", () => {
  test("downloads my data, then deletes my account behind my password and signs me out", async () => {
    const { page, errors } = await signedInWithHistory(world(), PHONE, 20);
    await page.getByRole("button", { name: "Mon compte" }).click();
    const dialog = page.getByRole("dialog", { name: "Mon compte" });
    await dialog.waitFor();
    await shot(page, "account-phone", false);
    await checkA11y(page, "Mon compte");
    const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Télécharger mes données" }).click()]);
    const data = JSON.parse(readFileSync((await download.path())!, "utf8"));
    expect(data.conversations).toHaveLength(20);

    await dialog.getByRole("button", { name: "Supprimer mon compte…" }).click();
    await dialog.getByLabel("Mot de passe", { exact: true }).fill("PasLeBon123");
    await dialog.getByRole("button", { name: "Supprimer définitivement" }).click();
    await dialog.getByText("Mot de passe incorrect.").waitFor();
    await shot(page, "account-delete-refused-phone", false);
    await dialog.getByLabel("Mot de passe", { exact: true }).fill(TEST_PASSWORD);
    await dialog.getByRole("button", { name: "Supprimer définitivement" }).click();
    await page.getByRole("heading", { name: "Connexion" }).waitFor();
    await expect(page.evaluate(() => localStorage.getItem("unisson_token"))).resolves.toBeNull();
    // The 403 of the wrong password is an expected answer, not a page error.
    expect(errors).toEqual(["Failed to load resource: the server responded with a status of 403 (Forbidden)"]);
  }, 60_000);
});
