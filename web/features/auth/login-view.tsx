import { type FormEvent, useState } from "react";
import { Field } from "../../components/ui/field.tsx";
import { PasswordInput } from "../../components/ui/password-input.tsx";
import { fr } from "../../i18n/fr.ts";
import { errorText } from "../../lib/api.ts";
import { MarketingPanels } from "./marketing-panels.tsx";
import { ErrorAlert } from "../../components/ui/error-alert.tsx";
import { AuthCard, EmailField, SubmitButton, SwitchPrompt } from "./auth-card.tsx";

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
    <AuthCard titleId="login-title" title={t.title} aside={<MarketingPanels onRegister={onRegister} />}>
      <p className="muted">{t.subtitle}</p>
      <form onSubmit={submit} noValidate>
        <EmailField label={t.email} placeholder={t.emailPlaceholder} value={email} onChange={setEmail} />
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
        <SubmitButton busy={busy} disabled={blank} label={t.submit} busyLabel={t.submitting} />
      </form>
      <div className="auth-links">
        <button type="button" className="link" onClick={onForgot}>
          {t.forgot}
        </button>
        <SwitchPrompt question={t.noAccount} action={t.register} onClick={onRegister} />
      </div>
    </AuthCard>
  );
}
