import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";
import { systemClock } from "../../../src/lib/clock.ts";
import type { FakeProviders } from "../../fakes/ai/index.ts";

export type Server = TestApp & { token: string; userId: number };

/** Two servers (real clocks: heartbeats are compared across them) on one database, and a user signed in on both. */
export async function twoServers(fakes: FakeProviders, timeoutMs = 15_000): Promise<[Server, Server]> {
  const env = { ...fakes.env, AI_TIMEOUT_MS: String(timeoutMs) };
  const a = await createTestApp({ env, deps: { clock: systemClock } });
  const b = await createTestApp({ env: { ...env, DATABASE_URL: a.config.databaseUrl! }, deps: { clock: systemClock } });
  const { user, token } = await makeUser(a.db, new Date(), { planQueries: 5 });
  return [
    { ...a, token, userId: user.id },
    { ...b, token, userId: user.id },
  ];
}
