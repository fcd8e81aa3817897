import { afterAll, afterEach, beforeAll } from "bun:test";
import { GlobalWindow, PropertySymbol } from "happy-dom";

const URL0 = "http://localhost:3000/";
// Bun's own networking classes, kept before happy-dom replaces them: the in-process server's SDKs need them.
const NATIVE = { fetch: globalThis.fetch, Request: globalThis.Request, Response: globalThis.Response, Headers: globalThis.Headers };
const NativeAbortController = globalThis.AbortController;
/** Bun's own classes, read before happy-dom's replace them: a helper that runs an in-process app and the Stripe SDK beside the DOM puts them back (pricing-harness.ts). */
export const BUN_GLOBALS: Record<string, unknown> = Object.fromEntries(
  ["fetch", "Request", "Response", "Headers", "AbortController", "AbortSignal", "FormData", "ReadableStream"].map((k) => [
    k,
    (globalThis as Record<string, unknown>)[k],
  ]),
);

/**
 * An outgoing call of the in-process server made while happy-dom is
 * attached: its headers and AbortSignal may be happy-dom objects, which
 * Bun's fetch refuses. Rebuild them as Bun's own.
 */
function nativeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const headers: Record<string, string> = {};
  new NATIVE.Headers(init?.headers as HeadersInit | undefined).forEach((v, k) => {
    headers[k] = v;
  });
  const controller = new NativeAbortController();
  const signal = init?.signal;
  if (signal?.aborted) controller.abort();
  else signal?.addEventListener?.("abort", () => controller.abort());
  return NATIVE.fetch(url, { method: init?.method, headers, body: init?.body as BodyInit | undefined, signal: controller.signal });
}

/**
 * One happy-dom window for the whole test process, attached to the globals
 * for a web test file and detached after it. Never closed: React's scheduler
 * keeps the setImmediate of the window it first saw, and a closed window's
 * timers never fire again (GlobalRegistrator makes and closes a new window
 * per registration, which stalls every async render in the next file).
 */
type Shared = {
  window: InstanceType<typeof GlobalWindow>;
  descriptors: Map<PropertyKey, PropertyDescriptor>;
  saved: Map<PropertyKey, PropertyDescriptor | undefined> | null;
};
const TIMERS = new Set(["setTimeout", "clearTimeout", "setInterval", "clearInterval", "setImmediate", "clearImmediate", "queueMicrotask"]);
const g = globalThis as unknown as { __unissonDom?: Shared } & Record<PropertyKey, unknown>;

/** Exported for other web test helpers (pricing-harness.ts): one shared window avoids stalled renders. */
export function attach(url = URL0) {
  if (!g.__unissonDom) {
    const window = new GlobalWindow({ url, width: 1280, height: 800, console: globalThis.console });
    const descriptors = new Map<PropertyKey, PropertyDescriptor>();
    const own = Object.getOwnPropertyDescriptors(window) as Record<PropertyKey, PropertyDescriptor>;
    for (const key of [...Object.keys(own), ...Object.getOwnPropertySymbols(window)]) {
      if (typeof key === "string" && ["constructor", "undefined", "NaN", "global", "globalThis"].includes(key)) continue;
      const d = { ...(own[key as string] ?? Object.getOwnPropertyDescriptor(window, key)!) };
      if (d.value === window) d.value = globalThis;
      descriptors.set(key, { ...d, configurable: true });
    }
    g.__unissonDom = { window, descriptors, saved: null };
  }
  const shared = g.__unissonDom;
  if (shared.saved) return;
  shared.saved = new Map();
  for (const [key, d] of shared.descriptors) {
    const before = Object.getOwnPropertyDescriptor(globalThis, key);
    if (before && (!before.configurable || before.value === d.value)) continue; // Bun's own fixed globals stay
    // Bun's timers stay too: React's scheduler keeps the setImmediate it first sees, and jest's fake timers patch Bun's.
    if (typeof key === "string" && TIMERS.has(key)) continue;
    shared.saved.set(key, before);
    Object.defineProperty(globalThis, key, d);
  }
  (globalThis.document as unknown as Record<symbol, unknown>)[PropertySymbol.defaultView] = globalThis;
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  window.history.replaceState(null, "", url);
}

export function detach() {
  const shared = g.__unissonDom;
  if (!shared?.saved) return;
  document.body.innerHTML = "";
  localStorage.clear();
  for (const [key, d] of shared.saved) {
    if (d) Object.defineProperty(globalThis, key, d);
    else delete g[key];
  }
  shared.saved = null;
}

// react-dom decides at module load whether a DOM exists (and which events it
// supports): this module is imported first by web tests, before react-dom, so
// the first load sees one. useDom's afterAll removes it again.
attach();

/**
 * A browser-like DOM for one test file: (re)registered in beforeAll, removed
 * in afterAll, because bun runs every test file in one process and the server
 * tests must never see happy-dom's globals (its fetch, Request, Response...).
 * Testing Library's `screen` binds to the first document: query through
 * `within(document.body)` instead.
 */
export function useDom(url = URL0) {
  beforeAll(() => attach(url));
  afterEach(() => {
    // Set by rtl.ts once Testing Library is loaded (never import it here: see rtl.ts).
    (globalThis as { __rtlCleanup?: () => void }).__rtlCleanup?.();
    localStorage.clear();
    window.history.replaceState(null, "", "/");
  });
  afterAll(async () => {
    // Let React's scheduler finish what unmounting queued before the globals go away.
    await new Promise((r) => setTimeout(r, 30));
    detach();
  });
}

type AppLike = { request(input: string, init?: RequestInit): Response | Promise<Response> };

/**
 * Sends the SPA's fetch calls (hc uses the global fetch at call time) to an
 * in-process app: real routes, real database, no network and no faked
 * answers. Returns a function that restores the previous fetch.
 */
export function routeFetchTo(app: AppLike, log?: string[]): () => void {
  const previous = globalThis.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const raw = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const url = new URL(raw, "http://localhost:3000");
    // Only the SPA's own calls go to the app; the server's SDKs reach the fake providers over real HTTP.
    if (url.origin !== "http://localhost:3000") return nativeFetch(input, init);
    const headers: Record<string, string> = {};
    new Headers(init?.headers ?? (typeof input === "object" && "headers" in input ? input.headers : undefined)).forEach((v, k) => {
      headers[k] = v;
    });
    log?.push(`${init?.method ?? "GET"} ${url.pathname}`);
    const res = await app.request(url.pathname + url.search, { method: init?.method ?? "GET", headers, body: init?.body as string | undefined });
    // Re-wrap in this realm's Response so the SPA code sees an ordinary one.
    return new Response(await res.text(), { status: res.status, headers: Object.fromEntries(res.headers) });
  }) as typeof fetch;
  return () => {
    globalThis.fetch = previous;
  };
}

/**
 * Runs fn with `window` and `document` hidden: the AI SDKs refuse to be
 * constructed in a "browser-like environment", and the in-process server of a
 * component test builds its SDK clients while happy-dom is registered.
 */
export async function serverSide<T>(fn: () => Promise<T> | T): Promise<T> {
  const g = globalThis as Record<string, unknown>;
  const keys = ["window", "document", "fetch", "Request", "Response", "Headers"] as const;
  const saved = Object.fromEntries(keys.map((k) => [k, g[k]]));
  delete g.window;
  delete g.document;
  Object.assign(g, NATIVE);
  try {
    return await fn();
  } finally {
    Object.assign(g, saved);
  }
}
