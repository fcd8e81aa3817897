import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { ensureChromium, PHONE, useE2E } from "./harness.ts";
import { registerThroughApi } from "./page-checks.ts";

const skip = ensureChromium();
if (skip) console.warn(skip);

/** The chunks index.html preloads for each side (scripts/build-web.ts), from the build the executable embeds. */
const { screens } = JSON.parse(readFileSync(join(import.meta.dir, "../../build/web/bundle-meta.json"), "utf8")) as {
  screens: { signedIn: string[]; signedOut: string[] };
};

/** The page downloaded every chunk of its side and none that only the other side needs. */
function expectOnlySide(scripts: string[], side: "signedIn" | "signedOut") {
  const other = side === "signedIn" ? screens.signedOut : screens.signedIn;
  for (const url of screens[side]) expect(scripts).toContain(url);
  expect(scripts.filter((u) => other.includes(u) && !screens[side].includes(u))).toEqual([]);
}

/** Paths of the scripts and API calls the page requests from now on. */
function recordRequests(page: Page): { scripts: string[]; api: string[] } {
  const seen = { scripts: [] as string[], api: [] as string[] };
  page.on("request", (r) => {
    const path = new URL(r.url()).pathname;
    if (path.endsWith(".js")) seen.scripts.push(path);
    else if (path.startsWith("/api/")) seen.api.push(path);
  });
  return seen;
}

/** Signs in on the login screen shown and waits for the app, settled. */
async function signInThroughUi(page: Page, who: { email: string; password: string }) {
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Mot de passe", { exact: true }).fill(who.password);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await page.getByText("6/6 IA disponibles").first().waitFor();
  await page.waitForLoadState("networkidle");
}

describe.skipIf(!!skip)("e2e: each first screen loads only its own code (issue 24)", () => {
  const world = useE2E();

  test("the login screen downloads the sign-in chunks and none of the app's", async () => {
    const { page, errors } = await world().newPage(PHONE);
    const seen = recordRequests(page);
    await page.goto("/");
    await page.getByRole("heading", { name: "Connexion" }).waitFor();
    await page.waitForLoadState("networkidle");
    expectOnlySide(seen.scripts, "signedOut");
    expect(seen.api).toEqual([]);
    // The inline boot script ran (the CSP allows it by its hash) and preloaded this side.
    const preloaded = await page.$$eval("link[rel=modulepreload]", (ls) => ls.map((l) => new URL((l as HTMLLinkElement).href).pathname));
    expect([...new Set(preloaded)].sort()).toEqual([...screens.signedOut].sort());
    expect(errors).toEqual([]);
  }, 30_000);

  test("with a stored session the app downloads its chunks, none of the login's, and calls each first API once", async () => {
    const { page, errors } = await world().newPage(PHONE);
    await registerThroughApi(page, { first: "Louise", last: "Martin", email: "first-screen@example.fr", password: "Nuage-Bleu-42" });
    const seen = recordRequests(page);
    await page.goto("/");
    await page.getByText("6/6 IA disponibles").first().waitFor();
    await page.waitForLoadState("networkidle");
    expectOnlySide(seen.scripts, "signedIn");
    // Started by index.html's boot script and taken by the app: not called a second time.
    for (const path of ["/api/auth/me", "/api/unisson/models", "/api/promo/my-code"]) expect(seen.api.filter((p) => p === path)).toEqual([path]);
    expect(errors).toEqual([]);
  }, 30_000);

  test("a reset link with a stored session shows the reset screen from the sign-in chunks", async () => {
    const { page, errors } = await world().newPage(PHONE);
    await registerThroughApi(page, { first: "Paul", last: "Martin", email: "first-screen-reset@example.fr", password: "Nuage-Bleu-42" });
    const seen = recordRequests(page);
    await page.goto("/reset-password?token=not-a-real-token");
    // The reset screen, past its check of the token (an unknown one): not the app, though a session is stored.
    await page.getByRole("heading", { name: "Lien invalide" }).waitFor();
    await page.waitForLoadState("networkidle");
    expectOnlySide(seen.scripts, "signedOut");
    expect(errors).toEqual([]);
  }, 30_000);
  test("a stored session that does not open (unreadable user) gets the login screen from its own chunks, no app call, and the next sign-in its own answers", async () => {
    const { page, errors } = await world().newPage(PHONE);
    await registerThroughApi(page, { first: "Anne", last: "Petit", email: "first-screen-old@example.fr", password: "Nuage-Bleu-42" });
    const other = { email: "first-screen-new@example.fr", password: "Nuage-Bleu-42" };
    const res = await page.request.post("/api/auth/register", { data: { ...other, first_name: "Bruno", last_name: "Petit" } });
    expect(res.ok()).toBe(true);
    await page.evaluate(() => localStorage.setItem("unisson_user", "{not json"));
    const seen = recordRequests(page);
    await page.goto("/");
    await page.getByRole("heading", { name: "Connexion" }).waitFor();
    await page.waitForLoadState("networkidle");
    // The boot script reads the stored user as the app does: no session, so the login side only and no call with Anne's token.
    expectOnlySide(seen.scripts, "signedOut");
    expect(seen.api).toEqual([]);
    await signInThroughUi(page, other);
    expect(await page.locator(".app-header .hello").innerText()).toBe("Bruno");
    expect(errors).toEqual([]);
  }, 30_000);

  test("answers started for a stored session the server no longer knows are not given to the next sign-in", async () => {
    const { page, errors } = await world().newPage(PHONE);
    const token = await registerThroughApi(page, { first: "Carla", last: "Petit", email: "first-screen-revoked@example.fr", password: "Nuage-Bleu-42" });
    const other = { email: "first-screen-after@example.fr", password: "Nuage-Bleu-42" };
    expect((await page.request.post("/api/auth/register", { data: { ...other, first_name: "Denis", last_name: "Petit" } })).ok()).toBe(true);
    // Carla's session ends on the server (another device logged out): the page still holds it.
    expect((await page.request.post("/api/auth/logout", { headers: { Authorization: `Bearer ${token}` } })).ok()).toBe(true);
    const seen = recordRequests(page);
    await page.goto("/");
    await page.getByRole("heading", { name: "Connexion" }).waitFor();
    expect(seen.api).toContain("/api/auth/me"); // started by the boot script with Carla's token, answered 401
    await signInThroughUi(page, other);
    expect(await page.locator(".app-header .hello").innerText()).toBe("Denis");
    expect(errors.filter((e) => !e.includes("401"))).toEqual([]);
  }, 30_000);
});
