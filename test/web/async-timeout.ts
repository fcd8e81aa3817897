/**
 * How long findBy… and waitFor wait in the web tests (Testing Library's default is
 * 1 s): a loaded 2-core box renders slower and hashes a password (argon2,
 * in-process server) in seconds, not milliseconds (5 s failed a sign-in under
 * load; the payment dialog's 2 s close failed a 1 s wait). A test that finds
 * its text sooner is not slowed down. Set by rtl.ts and by
 * pricing-harness.ts's useDom, whichever a file uses.
 */
export const ASYNC_UTIL_TIMEOUT_MS = 15_000;
