/** Debian's Chromium, as the e2e tests and the browser benchmarks launch it; CHROMIUM_PATH names another. */
export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/** Headless, and quiet: nothing reaches the network but the pages under test (loopback). */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];
