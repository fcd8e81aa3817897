import { describe, expect, test } from "bun:test";
import { acquireLease, LEASE_TTL_MS, LeaseHeldError, readLease, releaseLease, renewLease } from "../../../src/system/lease.ts";
import { createTestApp } from "../../helpers/app.ts";

/** A lease written by a server on another host (a shared volume): only its expiry says whether it lives. */
function otherHost(t: Awaited<ReturnType<typeof createTestApp>>, expiresAt: number) {
  const now = t.clock.now().getTime();
  t.db.$client.run(
    "INSERT INTO server_lease (id, holder, hostname, pid, url, acquired_at, heartbeat_at, expires_at) VALUES (1, 'ailleurs', 'autre-machine', 4242, 'http://10.0.0.2:3000', ?, ?, ?)",
    [now - 5000, now - 5000, expiresAt],
  );
}

describe("the server lease", () => {
  test("a lease of another host is respected until it expires, then taken", async () => {
    const t = await createTestApp();
    otherHost(t, t.clock.now().getTime() + 10_000);
    await expect(acquireLease(t.db, t.clock.now(), null)).rejects.toThrow(LeaseHeldError);
    await expect(acquireLease(t.db, t.clock.now(), null)).rejects.toThrow(
      "Un autre serveur Unisson utilise déjà cette base (pid 4242 sur autre-machine, http://10.0.0.2:3000, dernier signe de vie il y a 5 s) : arrêtez-le avant d'en démarrer un second.",
    );
    t.clock.advance(10_001);
    const lease = await acquireLease(t.db, t.clock.now(), "http://127.0.0.1:3000");
    expect(await readLease(t.db)).toMatchObject({ holder: lease.holder, pid: process.pid, url: "http://127.0.0.1:3000" });
  });

  test("the heartbeat extends the lease; once another server took it, the heartbeat says so", async () => {
    const t = await createTestApp();
    const lease = await acquireLease(t.db, t.clock.now(), null);
    t.clock.advance(10_000);
    expect(await renewLease(t.db, lease, t.clock.now())).toBe(true);
    expect((await readLease(t.db))!.expiresAt.getTime()).toBe(t.clock.now().getTime() + LEASE_TTL_MS);
    t.db.$client.run("UPDATE server_lease SET holder = 'un autre'");
    expect(await renewLease(t.db, lease, t.clock.now())).toBe(false);
  });

  test("a clean stop frees the database; releasing someone else's lease does nothing", async () => {
    const t = await createTestApp();
    const lease = await acquireLease(t.db, t.clock.now(), null);
    await releaseLease(t.db, { ...lease, holder: "un autre" });
    expect(await readLease(t.db)).toBeDefined();
    await releaseLease(t.db, lease);
    expect(await readLease(t.db)).toBeUndefined();
  });
});
