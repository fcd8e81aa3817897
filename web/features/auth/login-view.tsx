import { type FormEvent, useState } from "react";
import { fr } from "../../i18n/fr.ts";
import { ApiError } from "../../lib/api.ts";
import { MarketingPanels } from "./marketing-panels.tsx";

const t = fr.login;

export function LoginView({ onSubmit }: { onSubmit: (email: string, password: string) => Promise<void> }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [show, setShow] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const blank = email.trim() === "" || password.trim() === "";

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (blank || busy) return;
    setBusy(true);
    setError(null);
    try {
      await onSubmit(email.trim(), password);
    } catch (err) {
      setError(err instanceof ApiError && err.detail ? err.detail : t.error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="auth-layout">
      <main className="auth-card" aria-labelledby="login-title">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true" />
          <span className="brand-name">{fr.brand.name}</span>
        </div>
        <h1 id="login-title">{t.title}</h1>
        <p className="muted">{t.subtitle}</p>
        <form onSubmit={submit} noValidate>
          <label className="field">
            <span>{t.email}</span>
            <input
              type="email"
              name="email"
              autoComplete="email"
              placeholder={t.emailPlaceholder}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </label>
          <label className="field">
            <span>{t.password}</span>
            <span className="input-with-button">
              <input
                type={show ? "text" : "password"}
                name="password"
                autoComplete="current-password"
                placeholder={t.passwordPlaceholder}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
              <button
                type="button"
                className="ghost"
                aria-label={show ? t.hidePassword : t.showPassword}
                aria-pressed={show}
                onClick={() => setShow((s) => !s)}
              >
                {show ? "🙈" : "👁"}
              </button>
            </span>
          </label>
          {error && (
            <p className="alert error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="primary block" disabled={blank || busy}>
            {busy ? t.submitting : t.submit}
          </button>
        </form>
        <div className="auth-links">
          <button type="button" className="link">
            {t.forgot}
          </button>
          <span>
            {t.noAccount}{" "}
            <button type="button" className="link">
              {t.register}
            </button>
          </span>
        </div>
      </main>
      <MarketingPanels />
    </div>
  );
}
