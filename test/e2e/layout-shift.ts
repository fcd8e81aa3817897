import type { BrowserContext, Page } from "playwright-core";

/**
 * Layout shift as Lighthouse counts it: the browser's own `layout-shift`
 * entries without recent input, grouped in session windows (gaps under 1 s,
 * at most 5 s long); the score is the largest window's sum. Installed before
 * any page script; `resetShifts` starts a new measure (one state of a screen).
 * Entries within 500 ms of a click are kept aside: Lighthouse's user-flow
 * timespans count them, so `layoutShiftScore(page, { afterInput: true })` does too.
 */
export async function recordLayoutShifts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    type Shift = { value: number; startTime: number; hadRecentInput: boolean; sources?: { node?: Node }[] };
    const w = window as unknown as { __shifts: { value: number; t: number; who: string[]; input: boolean }[] };
    w.__shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as Shift[]) {
        const who = (e.sources ?? []).map((s) => {
          const el = s.node as Element | undefined;
          return el?.nodeType === 1 ? `${el.tagName.toLowerCase()}.${String(el.className).split(" ").join(".")}` : String(el?.nodeName ?? "?");
        });
        w.__shifts.push({ value: e.value, t: e.startTime, who, input: e.hadRecentInput });
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

export async function resetShifts(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __shifts: unknown[] }).__shifts = [];
  });
}

/** The largest session window's sum since the last reset, and what moved (for the failure message). */
export async function layoutShiftScore(
  page: Page,
  opts: { afterInput?: boolean } = {},
): Promise<{ score: number; shifts: { value: number; t: number; who: string[] }[] }> {
  return page.evaluate((afterInput) => {
    const all = (window as unknown as { __shifts: { value: number; t: number; who: string[]; input: boolean }[] }).__shifts;
    const shifts = all.filter((s) => afterInput || !s.input);
    let best = 0;
    let sum = 0;
    let first = -Infinity;
    let last = -Infinity;
    for (const s of shifts) {
      if (s.t - last > 1000 || s.t - first > 5000) {
        sum = 0;
        first = s.t;
      }
      sum += s.value;
      last = s.t;
      best = Math.max(best, sum);
    }
    return { score: best, shifts };
  }, !!opts.afterInput);
}

/** A mid-range phone on a slow network, as Lighthouse's mobile run: 4x slower CPU, ~1.6 Mbit/s with 150 ms latency. */
export async function throttle(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
}
