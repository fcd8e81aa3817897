/**
 * Shared by the pricing, payment and admin component tests: a happy-dom
 * document registered for one test file only (unregistered after it, so
 * server tests in the same bun process never see DOM globals), and the
 * browser's fetch routed to an in-process app instead of faked answers.
 */
import { afterAll, afterEach, beforeAll } from "bun:test";
import type { UserRow } from "../../src/db/schema/index.ts";
import { type PublicUser, toPublicUser } from "../../src/users/users.view.ts";
import { ASYNC_UTIL_TIMEOUT_MS } from "./async-timeout.ts";
import { attach, BUN_GLOBALS, detach } from "./dom.ts";

export const ORIGIN = "http://localhost:3000";

const nativeFetch = BUN_GLOBALS.fetch as typeof fetch;

/**
 * The one happy-dom window of the process (dom.ts: a window made and closed
 * per file, as GlobalRegistrator does, stalls React's renders in the next
 * file), with Bun's own networking classes kept over happy-dom's: the
 * in-process app, the Stripe SDK and the fake Stripe server need the real ones.
 */
function register() {
  attach(`${ORIGIN}/`);
  Object.assign(globalThis, BUN_GLOBALS);
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
}

// At import, before react-dom loads: react-dom decides once, when first
// evaluated, whether it runs in a DOM (its input events depend on it). So a
// test file imports this module first.
register();

export function useDom() {
  beforeAll(async () => {
    register();
    const { configure } = await import("@testing-library/react");
    configure({ asyncUtilTimeout: ASYNC_UTIL_TIMEOUT_MS });
  });
  afterEach(async () => {
    const { cleanup } = await import("@testing-library/react");
    cleanup();
    localStorage.clear();
  });
  afterAll(async () => {
    // Let React's scheduler finish what unmounting queued before the globals go away.
    await new Promise((r) => setTimeout(r, 30));
    detach();
  });
}

type Handler = (path: string, init: RequestInit | undefined) => Promise<Response> | undefined;
export type Routed = { calls: string[]; restore(): void; override(h: Handler | null): void };

/**
 * window.fetch -> app.request(path). `override` lets a test play the
 * failures a real server cannot produce on demand (timeouts, network errors).
 */
export function routeFetch(app: { request(path: string, init?: RequestInit): Response | Promise<Response> }): Routed {
  const before = globalThis.fetch;
  const calls: string[] = [];
  let handler: Handler | null = null;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url, ORIGIN);
    if (url.origin !== ORIGIN) return nativeFetch(input, init); // the SDKs' calls to the fakes
    const path = url.pathname + url.search;
    calls.push(`${init?.method ?? "GET"} ${path}`);
    const special = handler?.(path, init);
    if (special) return special;
    return app.request(path, init);
  }) as typeof fetch;
  return {
    calls,
    restore: () => {
      globalThis.fetch = before;
    },
    override: (h) => {
      handler = h;
    },
  };
}

/** What the SPA keeps after login (web/lib/api.ts keys). */
export function signIn(row: UserRow, token: string, now: Date): PublicUser {
  const user = toPublicUser(row, now);
  localStorage.setItem("unisson_token", token);
  localStorage.setItem("unisson_user", JSON.stringify(user));
  return user;
}

/** Lets pending promises (fetch -> app -> setState) run. */
export async function flush(times = 5) {
  const { act } = await import("@testing-library/react");
  // Each round lets a routed fetch's few dozen promise steps settle inside act.
  for (let i = 0; i < times; i++)
    await act(async () => {
      for (let step = 0; step < 20; step++) await null;
    });
}

/**
 * Replaces a field's text the way a user does. (fireEvent.change does not
 * reach React's onChange under happy-dom; user-event's keystrokes do.)
 */
export async function retype(el: HTMLElement, text: string, advanceTimers?: (ms: number) => void) {
  const { default: userEvent } = await import("@testing-library/user-event");
  // The document of this window: user-event remembers the one it saw first, gone with a previous test file.
  const user = userEvent.setup({ document, delay: null, ...(advanceTimers ? { advanceTimers } : {}) });
  // Backspaces rather than user.clear(): React under happy-dom does not see clear()'s change.
  const erase = "{Backspace}".repeat((el as HTMLInputElement).value.length);
  if (erase) await user.type(el, erase);
  // One keystroke per call, as a person types: each key is rendered before the next one lands.
  for (const c of text)
    await user.type(
      el,
      c.replace(/[{[]/g, (x) => x + x),
    );
}

/**
 * createTestApp for DOM tests that reach the fake Stripe. The Stripe SDK emits
 * a "request" event per call through an EventTarget built from whichever
 * Event/EventTarget globals existed when it loaded and when it was built
 * (Bun's or happy-dom's, depending on which test file came first); mixed, the
 * dispatch throws. The product never listens to those events: they are muted.
 */
export async function appWithStripe(make: () => Promise<TestAppLike>): Promise<TestAppLike> {
  const ctx = await make();
  const emitter = (ctx.deps.stripe as { _emitter?: { emit(...a: unknown[]): boolean } } | null)?._emitter;
  if (emitter) emitter.emit = () => true;
  return ctx;
}
type TestAppLike = { deps: { stripe: unknown } } & Record<string, any>;
