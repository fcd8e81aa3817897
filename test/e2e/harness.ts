import { afterAll, afterEach, beforeAll } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { type SmtpFake, startSmtpFake } from "../fakes/smtp.ts";
import { type FakeProviders, startFakeProviders } from "../fakes/ai/index.ts";
import { startBinary, tempDir } from "../helpers/binary.ts";
import { CHROMIUM, CHROMIUM_ARGS } from "../helpers/chromium.ts";

export const SCREENSHOTS = join(import.meta.dir, "screenshots");
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/**
 * Debian's Chromium, installed when missing and we are root; otherwise the
 * reason to skip. Returns null when the browser is there.
 */
export function ensureChromium(): string | null {
  if (existsSync(CHROMIUM)) return null;
  if (process.getuid?.() !== 0) return `e2e skipped: ${CHROMIUM} is missing and installing it needs root (apt-get install -y chromium)`;
  const r = Bun.spawnSync(["sh", "-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium"], {
    stdout: "inherit",
    stderr: "inherit",
  });
  return r.exitCode === 0 && existsSync(CHROMIUM) ? null : "e2e skipped: apt-get install -y chromium failed";
}

export type E2E = {
  url: string;
  /** The server's data folder: its database is unisson.db there (tests may seed it, WAL allows it). */
  dataDir: string;
  fakes: FakeProviders;
  smtp: SmtpFake;
  browser: Browser;
  /** A fresh context and page (own storage) at the phone or desktop size; console errors are collected. */
  newPage(size?: { width: number; height: number }): Promise<{ page: Page; context: BrowserContext; errors: string[] }>;
  /** Closes the pages opened so far (useE2E does it after each test). */
  closePages(): Promise<void>;
  stop(): Promise<void>;
};

/**
 * The compiled executable on a temp data dir, with the fake AI providers and
 * the test SMTP server, and a headless Chromium. Playwright gives each launch
 * a fresh temporary profile (its own --user-data-dir).
 */
export async function startE2E(env: Record<string, string> = {}): Promise<E2E> {
  const fakes = startFakeProviders();
  const smtp = await startSmtpFake();
  const dir = tempDir("unisson-e2e-");
  const server = await startBinary({ DATA_DIR: dir.path, SMTP_URL: smtp.url, LOG_LEVEL: "warn", ...fakes.env, ...env }, dir.path);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  let contexts: BrowserContext[] = [];
  const closePages = async () => {
    const open = contexts;
    contexts = [];
    await Promise.all(open.map((c) => c.close().catch(() => {})));
  };
  return {
    url: server.url,
    dataDir: dir.path,
    fakes,
    smtp,
    browser,
    async newPage(size = DESKTOP) {
      const context = await browser.newContext({ viewport: size, locale: "fr-FR", baseURL: server.url });
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      const errors: string[] = [];
      page.on("console", (m) => {
        if (m.type() === "error") errors.push(m.text());
      });
      page.on("pageerror", (e) => errors.push(String(e)));
      return { page, context, errors };
    },
    closePages,
    async stop() {
      await closePages();
      await browser.close().catch(() => {});
      server.proc.kill();
      await server.proc.exited;
      await smtp.close();
      await fakes.stop();
      dir.cleanup();
    },
  };
}

/** Saves test/e2e/screenshots/<name>.png (git-ignored), for a person to look at. */
export async function shot(page: Page, name: string, fullPage = true): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage });
  return path;
}

/** Registers through the UI; returns the e-mail used. */
export async function registerThroughUi(page: Page, who: { first: string; last: string; email: string; password: string }) {
  await page.goto("/");
  await page.getByRole("button", { name: "Créer un compte" }).click();
  await page.getByLabel("Prénom").fill(who.first);
  await page.getByLabel("Nom", { exact: true }).fill(who.last);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Mot de passe", { exact: true }).fill(who.password);
  await page.getByLabel("Confirmer le mot de passe").fill(who.password);
  await page.locator("#terms").check();
  await page.getByRole("button", { name: "Créer mon compte" }).click();
  await page.getByRole("button", { name: "Déconnexion" }).waitFor();
}

/** Signs an existing account in through the login form (no second factor: TWO_FACTOR=off for admins). */
export async function signInThroughUi(page: Page, who: { email: string; password: string }) {
  await page.goto("/");
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Mot de passe", { exact: true }).fill(who.password);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await page.getByRole("button", { name: "Déconnexion" }).waitFor();
}

/**
 * The usual setup of a describe block: one E2E world (fakes, executable,
 * browser) started before its tests and stopped after; call `e()` inside tests.
 * Each test's pages are closed when it ends: a page left open keeps running
 * (its timers, and a CPU-throttled one spins about 90 % of a core until the
 * browser closes: docs/TESTING.md).
 */
export function useE2E(env: Record<string, string> = {}): () => E2E {
  let e: E2E | undefined;
  beforeAll(async () => {
    e = await startE2E(env);
  }, 60_000);
  afterEach(async () => {
    await e?.closePages();
  });
  afterAll(async () => {
    await e?.stop();
  });
  return () => e!;
}
