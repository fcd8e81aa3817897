import { afterEach, describe, expect, test } from "bun:test";
import { toPublicUser } from "../../src/users/users.view.ts";
import { createTestApp } from "../helpers/app.ts";
import { makeUser, TEST_PASSWORD } from "../helpers/fixtures.ts";
import { lastCode } from "../server/auth/auth.helpers.ts";
import { routeFetchTo, useDom } from "./dom.ts";
import { act, fireEvent, render, within } from "./rtl.ts";

useDom();
let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

async function mount(env: Record<string, string> = {}, admin = false) {
  const t = await createTestApp({ env });
  const { user, token } = await makeUser(t.db, t.clock.now(), { isAdmin: admin });
  localStorage.setItem("unisson_token", token);
  restore = routeFetchTo(t.app);
  const { AccountDialog } = await import("../../web/features/account/account-dialog.tsx");
  let deleted = 0;
  render(<AccountDialog user={toPublicUser(user, t.clock.now())} onClose={() => {}} onDeleted={() => deleted++} />);
  const q = within(document.body);
  return { t, user, q, deleted: () => deleted };
}

/** Password checks (argon2) take real time: wait in real time, up to 3 s. */
async function until(check: () => unknown) {
  for (let i = 0; i < 300 && !check(); i++) await act(() => Bun.sleep(10));
}

describe("Mon compte: deleting the account", () => {
  test("with two-factor: the password first, then the mailed code, then it is gone", async () => {
    const { t, user, q, deleted } = await mount({ TWO_FACTOR: "all" });
    fireEvent.click(q.getByRole("button", { name: "Supprimer mon compte…" }));
    fireEvent.change(q.getByLabelText("Mot de passe"), { target: { value: TEST_PASSWORD } });
    fireEvent.click(q.getByRole("button", { name: "Supprimer définitivement" }));
    const code = await q.findByLabelText("Code de vérification (reçu par e-mail)");
    expect(q.getByText("Un code vient de vous être envoyé par e-mail.")).toBeTruthy();
    expect(deleted()).toBe(0);
    fireEvent.change(code, { target: { value: await lastCode(t.db, user.email) } });
    fireEvent.click(q.getByRole("button", { name: "Supprimer définitivement" }));
    await until(() => deleted() > 0);
    expect(deleted()).toBe(1);
    expect(t.db.$client.query("SELECT count(*) AS n FROM users WHERE id = ?").get(user.id)).toEqual({ n: 0 });
  });

  test("a wrong password shows the server's French message and deletes nothing", async () => {
    const { t, user, q, deleted } = await mount();
    fireEvent.click(q.getByRole("button", { name: "Supprimer mon compte…" }));
    fireEvent.change(q.getByLabelText("Mot de passe"), { target: { value: "PasLeBon123" } });
    fireEvent.click(q.getByRole("button", { name: "Supprimer définitivement" }));
    await q.findByText("Mot de passe incorrect.");
    expect(deleted()).toBe(0);
    expect(t.db.$client.query("SELECT count(*) AS n FROM users WHERE id = ?").get(user.id)).toEqual({ n: 1 });
  });

  test("an admin sees why the account is not deleted from here", async () => {
    const { q } = await mount({}, true);
    expect(q.queryByRole("button", { name: "Supprimer mon compte…" })).toBeNull();
    expect(q.getByText(/Un compte administrateur se supprime par un autre administrateur/)).toBeTruthy();
  });
});
