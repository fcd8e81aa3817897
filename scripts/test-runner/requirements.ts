/**
 * What this machine lacks for the run to be complete. Without PostgreSQL
 * (no initdb) the PostgreSQL pass and the tests that need a cluster skip;
 * without Chromium the browser tests skip. That is fine on a laptop, not in
 * CI: REQUIRE_POSTGRES=1 and REQUIRE_E2E=1 (set by .ci/run) turn each gap
 * into a failure before anything runs.
 */
export type Machine = { pgBin: string | undefined; chromium: string; chromiumPresent: boolean };

/** One French line per requirement that is asked for and missing; empty when the run may go on. */
export function missingRequirements(env: Record<string, string | undefined>, machine: Machine): string[] {
  const missing: string[] = [];
  if (env.REQUIRE_POSTGRES === "1" && !machine.pgBin) {
    missing.push(
      "PostgreSQL requis (REQUIRE_POSTGRES=1) mais introuvable : pas d'initdb sur le PATH, dans PG_BIN ni dans /usr/lib/postgresql/<version>/bin (apt-get install postgresql)",
    );
  }
  if (env.REQUIRE_E2E === "1" && !machine.chromiumPresent) {
    missing.push(`Chromium requis (REQUIRE_E2E=1) mais introuvable : ${machine.chromium} n'existe pas (apt-get install chromium, ou CHROMIUM_PATH)`);
  }
  return missing;
}
