import { first } from "../../../src/db/transaction.ts";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { users } from "../../../src/db/schema/index.ts";
import { addMonths, DAY } from "../../../src/lib/clock.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";

async function setup(values: Parameters<typeof makeUser>[2] = {}) {
  const t = await createTestApp();
  const admin = await makeUser(t.db, t.clock.now(), { isAdmin: true });
  const target = (await makeUser(t.db, t.clock.now(), { firstName: "Léa", lastName: "Petit", email: "lea@example.fr", ...values })).user;
  /** The form as the panel sends it: every field, as shown, with the test's changes. */
  const form = (changes: Record<string, unknown> = {}) => ({
    first_name: target.firstName,
    last_name: target.lastName,
    email: target.email,
    subscription_type: "trial",
    remaining_queries: target.planQueries + target.extraQueries,
    trial_days_remaining: 7,
    ...changes,
  });
  const put = (json: unknown, id: number = target.id) => t.call("PUT", `/api/admin/users/${id}`, { json, token: admin.token });
  const row = async () => (await first(t.db.select().from(users).where(eq(users.id, target.id))))!;
  return { ...t, admin, target, form, put, row };
}

describe("PUT /api/admin/users/{id}", () => {
  test("answers the updated user, names and e-mail trimmed", async () => {
    const { put, form } = await setup();
    const res = await put(form({ first_name: "  Léna ", last_name: " Moreau ", email: "  Lena@Example.FR " }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ first_name: "Léna", last_name: "Moreau", email: "lena@example.fr", subscription_type: "trial" });
  });

  test("an untouched form changes nothing, not even the trial end", async () => {
    const { put, form, row, clock } = await setup();
    clock.advance(DAY / 2);
    const before = await row();
    const res = await put(form());
    expect(res.status).toBe(200);
    const after = await row();
    expect(after.trialEndsAt).toEqual(before.trialEndsAt);
    expect(after.planQueries).toBe(before.planQueries);
  });

  for (const [field, value, detail] of [
    ["first_name", "   ", "Le prénom est requis"],
    ["last_name", "", "Le nom est requis"],
    ["email", " ", "L'email est requis"],
    ["email", "pas-un-email", "Email invalide"],
    ["remaining_queries", -1, "Le nombre de requêtes ne peut pas être négatif"],
    ["remaining_queries", 2.5, "Le nombre de requêtes doit être un nombre entier"],
    ["remaining_queries", "douze", "Le nombre de requêtes doit être un nombre entier"],
    ["trial_days_remaining", -3, "Le nombre de jours ne peut pas être négatif"],
    ["trial_days_remaining", 31, "Le nombre de jours d'essai ne peut pas dépasser 30"],
    ["subscription_type", "gold", "Le type d'abonnement doit être trial, basic, pro ou expired"],
  ] as const) {
    test(`${field}=${JSON.stringify(value)} answers 400 "${detail}" and stores nothing`, async () => {
      const { put, form, row } = await setup();
      const before = await row();
      const res = await put(form({ [field]: value, first_name: field === "first_name" ? value : "Changé" }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail });
      expect(await row()).toEqual(before);
    });
  }

  test("a missing first name is refused with the spec's text", async () => {
    const { put, form } = await setup();
    const { first_name: _, ...rest } = form();
    const res = await put(rest);
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Le prénom est requis");
  });

  test("numbers sent as text are read as integers", async () => {
    const { put, form } = await setup();
    const res = await put(form({ remaining_queries: " 3 ", trial_days_remaining: "2" }));
    expect(res.status).toBe(200);
    expect(res.body.remaining_queries).toBe(3);
    expect(res.body.trial_days_remaining).toBe(2);
  });

  test("an e-mail already used by another account is refused, nothing stored", async () => {
    const { put, form, row, admin } = await setup();
    const res = await put(form({ email: admin.user.email.toUpperCase(), first_name: "Autre" }));
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Un compte existe déjà avec cette adresse email.");
    expect((await row()).firstName).toBe("Léa");
  });

  test("keeping one's own e-mail is not a conflict", async () => {
    const { put, form } = await setup();
    const res = await put(form({ email: "LEA@example.fr" }));
    expect(res.status).toBe(200);
  });

  test("changing the plan to pro sets its allowance and a renewal date a month ahead", async () => {
    const { put, form, row, clock } = await setup({ extraQueries: 4 });
    const res = await put(form({ subscription_type: "pro", remaining_queries: 12 }));
    expect(res.status).toBe(200);
    expect(res.body.subscription_type).toBe("pro");
    // The query count was changed in the same form: it wins, extra first kept.
    expect(res.body.remaining_queries).toBe(12);
    const r = await row();
    expect(r.billingCycle).toBe("monthly");
    expect(r.periodEndsAt).toEqual(addMonths(clock.now(), 1));
    expect(r.extraQueries).toBe(4);
    expect(r.planQueries).toBe(8);
  });

  test("changing the plan with the query count left as shown gives the plan's allowance plus extras", async () => {
    const { put, form } = await setup({ extraQueries: 2 });
    const res = await put(form({ subscription_type: "basic" }));
    expect(res.body.remaining_queries).toBe(12);
  });

  test("remaining_queries N sets the sum to N, extra capped at N", async () => {
    const { put, form, row } = await setup({ subscriptionType: "basic", planQueries: 8, extraQueries: 10 });
    const res = await put(form({ subscription_type: "basic", remaining_queries: 6 }));
    expect(res.body.remaining_queries).toBe(6);
    expect((await row()).extraQueries).toBe(6);
    expect((await row()).planQueries).toBe(0);
  });

  test("remaining_queries above the extras fills the plan balance", async () => {
    const { put, form, row } = await setup({ subscriptionType: "basic", planQueries: 1, extraQueries: 3 });
    await put(form({ subscription_type: "basic", remaining_queries: 20 }));
    expect((await row()).extraQueries).toBe(3);
    expect((await row()).planQueries).toBe(17);
  });

  test("trial_days_remaining sets the trial end that many days from now", async () => {
    const { put, form, row, clock } = await setup();
    const res = await put(form({ trial_days_remaining: 30 }));
    expect(res.body.trial_days_remaining).toBe(30);
    expect((await row()).trialEndsAt).toEqual(new Date(clock.now().getTime() + 30 * DAY));
  });

  test("trial_days_remaining 0 ends the trial: the user reads expired", async () => {
    const { put, form } = await setup();
    const res = await put(form({ trial_days_remaining: 0 }));
    expect(res.body.subscription_type).toBe("expired");
  });

  test("an unknown user answers 404", async () => {
    const { put, form } = await setup();
    const res = await put(form(), 999_999);
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe("Utilisateur introuvable.");
  });

  test("a non-numeric id answers 400 in French", async () => {
    const { call, admin, form } = await setup();
    const res = await call("PUT", "/api/admin/users/abc", { json: form(), token: admin.token });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Identifiant d'utilisateur invalide");
  });

  test("a body that is not JSON answers 400 in French", async () => {
    const { app, admin, target } = await setup();
    const res = await app.request(`/api/admin/users/${target.id}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${admin.token}`, "content-type": "application/json" },
      body: "{oops",
    });
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toBe("Le corps de la requête doit être un JSON valide.");
  });
});
