import { first } from "../../src/db/transaction.ts";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { passwordResetTokens, purchases, users } from "../../src/db/schema/index.ts";
import { HOUR } from "../../src/lib/clock.ts";
import { sha256 } from "../../src/lib/tokens.ts";
import { runCli, useDataDirs, withDb } from "../helpers/cli.ts";
import { makeUser } from "../helpers/fixtures.ts";

const dataDir = useDataDirs();

/** A fresh data folder with one user, lea@example.fr. */
async function setup() {
  const dir = await dataDir();
  const lea = await withDb(dir, async (db) => (await makeUser(db, new Date(), { email: "lea@example.fr", firstName: "Léa", lastName: "Petit" })).user);
  const cli = (...args: string[]) => runCli(args, dir);
  const row = async (email: string) => await withDb(dir, async (db) => await first(db.select().from(users).where(eq(users.email, email))));
  return { dir, lea, cli, row };
}

describe("unisson users", () => {
  test("create without --password generates one, prints it once, and it opens the account", async () => {
    const { cli, row } = await setup();
    const r = cli("users", "create", "--email", "Paul@Example.fr", "--first-name", "Paul", "--last-name", "Roux", "--json");
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.user).toMatchObject({ email: "paul@example.fr", first_name: "Paul", subscription_type: "trial", remaining_queries: 5, is_admin: false });
    expect(out.password.length).toBeGreaterThanOrEqual(12);
    expect(await Bun.password.verify(out.password, (await row("paul@example.fr"))!.passwordHash)).toBe(true);
  });

  test("create --admin --plan pro makes a Pro administrator", async () => {
    const { cli } = await setup();
    const r = cli(
      "users",
      "create",
      "--email",
      "chef@example.fr",
      "--first-name",
      "C",
      "--last-name",
      "D",
      "--password",
      "secret12",
      "--admin",
      "--plan",
      "pro",
      "--json",
    );
    expect(r.code).toBe(0);
    expect(r.json().user).toMatchObject({ subscription_type: "pro", remaining_queries: 30, is_admin: true, billing_cycle: "monthly" });
    expect(r.json().password).toBeUndefined();
  });

  test("create with a bad e-mail is refused with one French line, exit 1, nothing stored", async () => {
    const { cli, row } = await setup();
    const r = cli("users", "create", "--email", "pas-un-email", "--first-name", "A", "--last-name", "B");
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe("Format d'email invalide");
    expect(r.stdout).toBe("");
    expect(await row("pas-un-email")).toBeUndefined();
  });

  test("create with an e-mail already used is refused, exit 1", async () => {
    const { cli } = await setup();
    const r = cli("users", "create", "--email", "LEA@example.fr", "--first-name", "A", "--last-name", "B");
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe("Un compte existe déjà avec cette adresse email.");
  });

  test("create without --email is a usage error, exit 2", async () => {
    const { cli } = await setup();
    expect(cli("users", "create", "--first-name", "A", "--last-name", "B").code).toBe(2);
  });

  test("list --json answers users newest first with the total", async () => {
    const { cli, dir } = await setup();
    const later = await withDb(dir, async (db) => (await makeUser(db, new Date(Date.now() + 1000))).user);
    const r = cli("users", "list", "--json");
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.total).toBe(2);
    expect(out.users.map((u: { email: string }) => u.email)).toEqual([later.email, "lea@example.fr"]);
  });

  test("list prints an aligned French table", async () => {
    const { cli } = await setup();
    const lines = cli("users", "list").stdout.split("\n");
    expect(lines[0]).toMatch(/^ID\s+Email\s+Prénom\s+Nom\s+Forfait\s+Requêtes/);
    expect(lines[2]).toMatch(/lea@example\.fr\s+Léa\s+Petit\s+essai\s+5\s+7/);
    expect(lines.at(-2)).toBe("Page 1/1 — 1 utilisateur(s)");
  });

  test("list --search filters on the name", async () => {
    const { cli, dir } = await setup();
    await withDb(dir, async (db) => await makeUser(db, new Date(), { email: "autre@example.fr", lastName: "Grand" }));
    expect(
      cli("users", "list", "--search", "petit", "--json")
        .json()
        .users.map((u: { email: string }) => u.email),
    ).toEqual(["lea@example.fr"]);
  });

  test("list --plan expired lists the trials past their end", async () => {
    const { cli, dir } = await setup();
    await withDb(dir, async (db) => await makeUser(db, new Date(), { email: "old@example.fr", trialEndsAt: new Date(Date.now() - HOUR) }));
    expect(
      cli("users", "list", "--plan", "expired", "--json")
        .json()
        .users.map((u: { email: string }) => u.email),
    ).toEqual(["old@example.fr"]);
  });

  test("list --page past the end is empty, with the total", async () => {
    const { cli } = await setup();
    const empty = cli("users", "list", "--page", "2", "--json").json();
    expect(empty.users).toEqual([]);
    expect(empty.total).toBe(1);
  });

  test("list --page 0 is a usage error, exit 2", async () => {
    const { cli } = await setup();
    const r = cli("users", "list", "--page", "0");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--page doit être un entier entre 1 et");
  });

  test("show a missing user: one line, exit 1", async () => {
    const { cli } = await setup();
    const r = cli("users", "show", "personne@example.fr");
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe("Utilisateur introuvable : personne@example.fr");
  });

  test("show prints the account sheet, e-mail matched whatever its case", async () => {
    const { cli } = await setup();
    const r = cli("users", "show", "LEA@EXAMPLE.FR");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Email\s+lea@example\.fr/);
    expect(r.stdout).toMatch(/Requêtes restantes\s+5 \(forfait 5, supplémentaires 0\)/);
  });

  test("update changes the names and e-mail", async () => {
    const { cli, row } = await setup();
    const r = cli("users", "update", "lea@example.fr", "--first-name", "Léna", "--email", "lena@example.fr", "--json");
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ first_name: "Léna", last_name: "Petit", email: "lena@example.fr" });
    expect(await row("lea@example.fr")).toBeUndefined();
  });

  test("update to an e-mail already taken is refused, exit 1, nothing changed", async () => {
    const { cli, dir, row } = await setup();
    await withDb(dir, async (db) => await makeUser(db, new Date(), { email: "pris@example.fr" }));
    const r = cli("users", "update", "lea@example.fr", "--first-name", "X", "--email", "pris@example.fr");
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe("Un compte existe déjà avec cette adresse email.");
    expect((await row("lea@example.fr"))!.firstName).toBe("Léa");
  });

  test("update with nothing to change is refused, exit 1", async () => {
    const { cli } = await setup();
    const r = cli("users", "update", "lea@example.fr");
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe("Rien à modifier : indiquez --first-name, --last-name ou --email.");
  });

  test("set-plan basic --cycle annual sets the plan and a renewal a year ahead", async () => {
    const { cli } = await setup();
    const r = cli("users", "set-plan", "lea@example.fr", "basic", "--cycle", "annual", "--json");
    expect(r.code).toBe(0);
    const u = r.json();
    expect(u).toMatchObject({ subscription_type: "basic", billing_cycle: "annual", plan_queries: 10 });
    const days = (new Date(u.next_renewal_date).getTime() - Date.now()) / (24 * HOUR);
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThan(367);
  });

  test("set-plan with an unknown plan is a usage error, exit 2, nothing changed", async () => {
    const { cli, row } = await setup();
    expect(cli("users", "set-plan", "lea@example.fr", "gold").code).toBe(2);
    expect((await row("lea@example.fr"))!.subscriptionType).toBe("trial");
  });

  test("grant adds extra requests", async () => {
    const { cli } = await setup();
    const r = cli("users", "grant", "lea@example.fr", "7", "--json");
    expect(r.json()).toMatchObject({ extra_queries: 7, remaining_queries: 12 });
  });

  test("grant 0 is a usage error, exit 2", async () => {
    const { cli } = await setup();
    expect(cli("users", "grant", "lea@example.fr", "0").code).toBe(2);
  });

  test("set-admin on, then off", async () => {
    const { cli, row } = await setup();
    const on = cli("users", "set-admin", "lea@example.fr", "on");
    expect(on.code).toBe(0);
    expect(on.stdout).toContain("Ses sessions et ses clés d'API ont été révoquées.");
    expect((await row("lea@example.fr"))!.isAdmin).toBe(true);
    expect(cli("users", "set-admin", "lea@example.fr", "off").code).toBe(0);
    expect((await row("lea@example.fr"))!.isAdmin).toBe(false);
  });

  test("two-factor on turns e-mail two-factor on", async () => {
    const { cli, row } = await setup();
    const r = cli("users", "two-factor", "lea@example.fr", "on", "--json");
    expect(r.json().two_factor_enabled).toBe(true);
    expect((await row("lea@example.fr"))!.twoFactorEnabled).toBe(true);
  });

  test("reset-password prints a one-hour single-use link whose token is stored hashed", async () => {
    const { cli, dir, lea } = await setup();
    const r = cli("users", "reset-password", "lea@example.fr", "--json");
    expect(r.code).toBe(0);
    const out = r.json();
    const token = new URL(out.url).searchParams.get("token")!;
    const stored = await withDb(
      dir,
      async (db) =>
        await first(
          db
            .select()
            .from(passwordResetTokens)
            .where(eq(passwordResetTokens.tokenHash, sha256(token))),
        ),
    );
    expect(stored?.userId).toBe(lea.id);
    expect(stored!.expiresAt.getTime() - stored!.createdAt.getTime()).toBe(HOUR);
  });

  test("delete without --yes and without a terminal is refused, exit 1, the user stays", async () => {
    const { cli, row } = await setup();
    const r = cli("users", "delete", "lea@example.fr");
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe("Suppression non confirmée : ajoutez --yes pour supprimer lea@example.fr.");
    expect(await row("lea@example.fr")).toBeDefined();
  });

  test("delete --yes removes the user and keeps their purchases anonymised", async () => {
    const { cli, dir, lea, row } = await setup();
    await withDb(
      dir,
      async (db) => await db.insert(purchases).values({ userId: lea.id, productType: "token_pack_10", amountCents: 999, createdAt: new Date() }),
    );
    const r = cli("users", "delete", "lea@example.fr", "--yes", "--json");
    expect(r.code).toBe(0);
    expect(r.json()).toEqual({ deleted: true, id: lea.id, email: "lea@example.fr" });
    expect(await row("lea@example.fr")).toBeUndefined();
    expect(await withDb(dir, async (db) => await first(db.select().from(purchases)))).toMatchObject({ userId: null, amountCents: 999 });
  });

  test("delete of a missing user: exit 1", async () => {
    const { cli } = await setup();
    const r = cli("users", "delete", "personne@example.fr", "--yes");
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe("Utilisateur introuvable : personne@example.fr");
  });
});
