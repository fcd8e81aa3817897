import { afterAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { articleFact, FakePages } from "../fakes/web/pages.ts";
import { FakeSearxng } from "../fakes/web/searxng.fake.ts";
import { DESKTOP, ensureChromium, PHONE, registerThroughUi, shot, signInThroughUi, useE2E } from "./harness.ts";

const skip = ensureChromium();
if (skip) console.warn(skip);

// Started before the executable: its WEB_SEARCH_URL names the fake SearXNG; the pages are on the loopback (WEB_FETCH_ALLOW_PRIVATE).
const searx = new FakeSearxng();
const pages = new FakePages();
searx.results = () => [
  { url: pages.url("/article/delta"), title: "Article delta", content: "Extrait delta." },
  { url: pages.url("/article/epsilon"), title: "Article epsilon", content: "Extrait epsilon." },
];
afterAll(async () => {
  await searx.stop();
  await pages.stop();
});

const ADMIN = { email: "admin@example.fr", password: "AdminSecret123" };

const toggle = (page: Page) => page.getByRole("button", { name: "Recherche web" });

/** Registers, turns « Recherche web » on, asks, and waits for the answer's source links. */
async function askWithWebSearch(page: Page, who: string) {
  await registerThroughUi(page, { first: who, last: "Web", email: `${who.toLowerCase()}@example.fr`, password: "Girafe-Secret-123" });
  await askOnPage(page);
}

/** Turns « Recherche web » on (off until then), asks, and waits for the answer's source links. */
async function askOnPage(page: Page) {
  await page.getByText("Sonar Pro").waitFor();
  await toggle(page).waitFor();
  expect(await toggle(page).getAttribute("aria-pressed")).toBe("false");
  await toggle(page).click();
  expect(await toggle(page).getAttribute("aria-pressed")).toBe("true");
  await page.getByRole("textbox", { name: "Votre question" }).fill("Quel est le chiffre du jour ?");
  await page.getByRole("textbox", { name: "Votre question" }).press("Enter");
  await page.locator(".final-answer").getByRole("link", { name: "Article epsilon" }).waitFor({ timeout: 30_000 });
}

describe.skipIf(!!skip)("e2e: web search for the council", () => {
  const world = useE2E({
    WEB_SEARCH_URL: searx.url,
    WEB_FETCH_ALLOW_PRIVATE: "true",
    TWO_FACTOR: "off",
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  });

  test("desktop: the « Recherche web » switch, the sources given to the models, links on the answer, the choice remembered", async () => {
    const e = world();
    const { page, errors } = await e.newPage(DESKTOP);
    await askWithWebSearch(page, "Alix");
    const link = page.locator(".final-answer").getByRole("link", { name: "Article delta" });
    expect(await link.getAttribute("href")).toBe(pages.url("/article/delta"));
    expect(e.fakes.control.callsOf("answer")[0]!.messages.at(-1)!.content).toContain(articleFact("delta"));
    await shot(page, "web-search-answer-desktop");
    // Kept by the browser for this account: still on after a reload.
    await page.reload();
    await toggle(page).waitFor();
    expect(await toggle(page).getAttribute("aria-pressed")).toBe("true");
    expect(errors).toEqual([]);
  }, 90_000);

  test("desktop: the live step says « Recherche sur le web… », then lists the sources every model reads", async () => {
    const e = world();
    const { page, errors } = await e.newPage(DESKTOP);
    await registerThroughUi(page, { first: "Sacha", last: "Web", email: "sacha@example.fr", password: "Girafe-Secret-123" });
    await toggle(page).click();
    searx.delayMs = 2500;
    // The synthesis comes late: the live step stays on screen, with its sources, until the answer replaces it.
    e.fakes.control.setAll({ synthesisLatencyMs: 4000 });
    try {
      await page.getByRole("textbox", { name: "Votre question" }).fill("Quel est le chiffre du jour ?");
      await page.getByRole("textbox", { name: "Votre question" }).press("Enter");
      await page.locator(".live-run").getByText("Recherche sur le web…").waitFor();
      await page.locator(".live-run").getByRole("list", { name: "Sources web de la réponse" }).getByRole("link", { name: "Article delta" }).waitFor();
      await shot(page, "web-search-live-desktop");
    } finally {
      searx.delayMs = 0;
      e.fakes.control.reset();
    }
    expect(errors).toEqual([]);
  }, 90_000);

  test("phone (390 px): the switch fits the composer and the source links are on the answer", async () => {
    const e = world();
    const { page, errors } = await e.newPage(PHONE);
    await askWithWebSearch(page, "Noa");
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    await shot(page, "web-search-answer-phone");
    expect(errors).toEqual([]);
  }, 90_000);

  for (const [size, name] of [
    [DESKTOP, "desktop"],
    [PHONE, "phone"],
  ] as const)
    test(`admin, ${name}: the usage section counts the web searches and the pages read, per day and per user`, async () => {
      const e = world();
      const { page, errors } = await e.newPage(size);
      await signInThroughUi(page, ADMIN);
      // Its own question (the switch starts off in a new browser): the test stands alone.
      await askOnPage(page);
      await page.getByRole("button", { name: "Administration" }).click();
      const perUser = page.getByRole("table", { name: "Recherche web : utilisateurs qui cherchent le plus" });
      await perUser.getByRole("rowheader", { name: ADMIN.email }).waitFor();
      await page.getByRole("table", { name: "Recherche web par jour" }).scrollIntoViewIfNeeded();
      // The viewport, scrolled to the web search tables (the whole dashboard is long on a phone).
      await shot(page, `web-search-admin-${name}`, false);
      expect(errors).toEqual([]);
    }, 90_000);
});
