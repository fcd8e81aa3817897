import { afterEach, describe, expect, test } from "bun:test";
import { lastResetToken } from "../server/auth/auth.helpers.ts";
import { makeUser } from "../helpers/fixtures.ts";
import { useDom } from "./dom.ts";
import { renderApp } from "./render.tsx";

useDom();
let restore: (() => void) | undefined;
afterEach(() => restore?.());

describe("register", () => {
  test("every French field error of docs/PRODUCT.md#register, each cleared when its field is edited", async () => {
    const r = await renderApp();
    restore = r.restore;
    r.fireEvent.click(r.q.getByRole("button", { name: "Créer un compte" }));
    r.fireEvent.click(r.q.getByRole("button", { name: "Créer mon compte" }));
    for (const text of [
      "Le prénom est requis",
      "Le nom est requis",
      "L'email est requis",
      "Le mot de passe est requis",
      "Vous devez accepter les CGU et CGV pour créer un compte",
    ]) {
      expect(r.q.getByText(text)).toBeTruthy();
    }
    r.fireEvent.change(r.q.getByLabelText("Prénom"), { target: { value: "Léa" } });
    expect(r.q.queryByText("Le prénom est requis")).toBeNull();
    expect(r.q.getByText("Le nom est requis")).toBeTruthy();
    r.fireEvent.change(r.q.getByLabelText("Email"), { target: { value: "pas-un-email" } });
    r.fireEvent.change(r.q.getByLabelText("Mot de passe"), { target: { value: "12345" } });
    r.fireEvent.change(r.q.getByLabelText("Confirmer le mot de passe"), { target: { value: "autre" } });
    r.fireEvent.click(r.q.getByRole("button", { name: "Créer mon compte" }));
    expect(r.q.getByText("Format d'email invalide")).toBeTruthy();
    expect(r.q.getByText("Le mot de passe doit contenir au moins 6 caractères")).toBeTruthy();
    expect(r.q.getByText("Les mots de passe ne correspondent pas")).toBeTruthy();
    expect(r.q.getByLabelText("Email").getAttribute("aria-invalid")).toBe("true");
  });

  test("the terms links open the legal modal; a valid form signs in", async () => {
    const r = await renderApp();
    restore = r.restore;
    r.fireEvent.click(r.q.getByRole("button", { name: "Créer un compte" }));
    r.fireEvent.click(r.q.getByRole("button", { name: "Conditions Générales de Vente" }));
    const dialog = await r.q.findByRole("dialog", { name: "Conditions Générales de Vente et d'Abonnement" });
    expect(dialog.textContent).toContain("11,99 €");
    expect(dialog.textContent).toContain("n'expirent jamais");
    r.fireEvent.click(r.within(dialog).getByRole("button", { name: "Fermer" }));
    expect(r.q.queryByRole("dialog")).toBeNull();
    r.fireEvent.change(r.q.getByLabelText("Prénom"), { target: { value: "Léa" } });
    r.fireEvent.change(r.q.getByLabelText("Nom"), { target: { value: "Martin" } });
    r.fireEvent.change(r.q.getByLabelText("Email"), { target: { value: "lea@example.fr" } });
    r.fireEvent.change(r.q.getByLabelText("Mot de passe"), { target: { value: "Girafe17" } });
    r.fireEvent.change(r.q.getByLabelText("Confirmer le mot de passe"), { target: { value: "Girafe17" } });
    r.fireEvent.click(r.q.getByRole("checkbox"));
    r.fireEvent.click(r.q.getByRole("button", { name: "Créer mon compte" }));
    await r.q.findByText("Bonjour, Léa", {}, { timeout: 15_000 });
    expect(JSON.parse(localStorage.getItem("unisson_user")!).subscription_type).toBe("trial");
  });
});

describe("forgot and reset password", () => {
  test("forgot: blank says 'Veuillez saisir votre adresse email', then the success state", async () => {
    const r = await renderApp();
    restore = r.restore;
    r.fireEvent.click(r.q.getByRole("button", { name: "Mot de passe oublié ?" }));
    r.fireEvent.click(r.q.getByRole("button", { name: "Envoyer le lien" }));
    expect(r.q.getByText("Veuillez saisir votre adresse email")).toBeTruthy();
    r.fireEvent.change(r.q.getByLabelText("Email"), { target: { value: "personne@example.fr" } });
    r.fireEvent.click(r.q.getByRole("button", { name: "Envoyer le lien" }));
    expect(await r.q.findByText("Vérifiez votre boîte mail")).toBeTruthy();
  });

  test("a reset-password path without token shows 'Token invalide'", async () => {
    const r = await renderApp({ entry: { reset: true, resetToken: null } });
    restore = r.restore;
    expect((await r.q.findByRole("alert")).textContent).toBe("Token invalide");
  });

  test("an unknown token is invalid; a real one validates, shows live criteria and resets", async () => {
    const bad = await renderApp({ entry: { reset: true, resetToken: "x".repeat(43) } });
    expect((await bad.q.findByRole("alert")).textContent).toBe("Ce lien de réinitialisation est invalide ou a expiré.");
    bad.restore();
    bad.cleanup();

    const r0 = await import("../helpers/app.ts");
    const t = await r0.createTestApp();
    const { user } = await makeUser(t.db, t.clock.now());
    await t.call("POST", "/api/auth/forgot-password", { json: { email: user.email } });
    const token = await lastResetToken(t.db, user.email);
    const { routeFetchTo } = await import("./dom.ts");
    restore = routeFetchTo(t.app);
    const { App } = await import("../../web/app.tsx");
    const { render, within, fireEvent } = await import("./rtl.ts");
    render(<App entry={{ reset: true, resetToken: token, paymentSessionId: null }} />);
    const q = within(document.body);
    expect(q.getByText("Vérification du lien…")).toBeTruthy();
    await q.findByText(user.email);
    const pwd = document.querySelector('input[name="new-password"]') as HTMLInputElement;
    const confirm = document.querySelector('input[name="confirm"]') as HTMLInputElement;
    const submit = q.getByRole("button", { name: "Changer le mot de passe" });
    fireEvent.change(pwd, { target: { value: "abcdefgh" } });
    const met = () => [...document.querySelectorAll(".criteria li")].map((li) => li.getAttribute("data-met"));
    expect(met()).toEqual(["true", "true", "false", "false", "false"]);
    expect(q.getByText("Les mots de passe ne correspondent pas").closest("li")?.getAttribute("data-met")).toBe("false");
    fireEvent.change(pwd, { target: { value: "GirafeBleu7" } });
    fireEvent.change(confirm, { target: { value: "GirafeBleu7" } });
    expect(met()).toEqual(["true", "true", "true", "true", "true"]);
    // A tick never sits beside a sentence saying the opposite: the met criteria say what holds.
    const lines = [...document.querySelectorAll(".criteria li")].map((li) => li.textContent?.trim());
    expect(lines).toEqual([
      "Au moins 8 caractères",
      "Au moins une lettre minuscule",
      "Au moins une lettre majuscule",
      "Au moins un chiffre",
      "Les mots de passe correspondent",
    ]);
    expect(submit.hasAttribute("disabled")).toBe(false);
    // Said before the user confirms: the change ends more than the old password.
    expect(
      q.getByText("Changer le mot de passe ferme toutes vos sessions et révoque vos clés d'API : vos outils devront utiliser une nouvelle clé."),
    ).toBeTruthy();
    fireEvent.click(submit);
    expect(await q.findByText("Votre mot de passe a été modifié. Vous pouvez maintenant vous connecter.")).toBeTruthy();
    const login = await t.call("POST", "/api/auth/login", { json: { email: user.email, password: "GirafeBleu7" } });
    expect(login.status).toBe(200);
  });
});
