import { type FormEvent, useState } from "react";
import { Brand } from "../../components/ui/brand.tsx";
import { Field } from "../../components/ui/field.tsx";
import { PasswordInput } from "../../components/ui/password-input.tsx";
import { fr } from "../../i18n/fr.ts";
import { errorText } from "../../lib/api.ts";
import { MarketingPanels } from "./marketing-panels.tsx";
import { ErrorAlert } from "../../components/ui/error-alert.tsx";

const t = fr.login;

export function LoginView({
  onSubmit,
  onForgot,
  onRegister,
  initialEmail = "",
}: {
  onSubmit: (email: string, password: string) => Promise<void>;
  onForgot: () => void;
  onRegister: () => void;
  initialEmail?: string;
}) {
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState("");
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
      setError(errorText(err, t.error));
      setBusy(false);
    }
  }

  return (
    <div className="auth-layout">
      <main className="auth-card" aria-labelledby="login-title">
        <Brand />
        <h1 id="login-title">{t.title}</h1>
        <p className="muted">{t.subtitle}</p>
        <form onSubmit={submit} noValidate>
          <Field label={t.email}>
            {(a) => (
              <input
                {...a}
                type="email"
                name="email"
                autoComplete="email"
                placeholder={t.emailPlaceholder}
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            )}
          </Field>
          <Field label={t.password}>
            {(a) => (
              <PasswordInput
                {...a}
                name="password"
                autoComplete="current-password"
                placeholder={t.passwordPlaceholder}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            )}
          </Field>
          <ErrorAlert message={error} />
          <button type="submit" className="primary block" disabled={blank || busy}>
            {busy ? t.submitting : t.submit}
          </button>
        </form>
        <div className="auth-links">
          <button type="button" className="link" onClick={onForgot}>
            {t.forgot}
          </button>
          <span>
            {t.noAccount}{" "}
            <button type="button" className="link" onClick={onRegister}>
              {t.register}
            </button>
          </span>
        </div>
      </main>
      <MarketingPanels onRegister={onRegister} />
    </div>
  );
}
