import { type FormEvent, useState } from "react";
import { Brand } from "../../components/ui/brand.tsx";
import { Field } from "../../components/ui/field.tsx";
import { fr } from "../../i18n/fr.ts";
import { errorText } from "../../lib/api.ts";
import { ErrorAlert } from "../../components/ui/error-alert.tsx";

const t = fr.forgot;

/** Form, then success or error (docs/PRODUCT.md#password-reset). The answer never says whether the account exists. */
export function ForgotPasswordView({
  onSubmit,
  onBack,
}: {
  onSubmit: (email: string) => Promise<{ success: boolean }>;
  onBack: () => void;
}) {
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    if (!email.trim()) {
      setError(t.required);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const res = await onSubmit(email.trim());
      if (res.success) setDone(true);
      else setError(t.failed);
    } catch (err) {
      setError(errorText(err, t.error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="auth-layout single">
      <main className="auth-card" aria-labelledby="forgot-title">
        <Brand />
        <h1 id="forgot-title">{done ? t.successTitle : t.title}</h1>
        {done ? (
          <p className="alert success" role="status">
            {t.success}
          </p>
        ) : (
          <form onSubmit={submit} noValidate>
            <p className="muted">{t.intro}</p>
            <Field label={fr.common.email} error={error === t.required ? error : null}>
              {(a) => (
                <input
                  {...a}
                  type="email"
                  name="email"
                  autoComplete="email"
                  placeholder={fr.common.emailPlaceholder}
                  value={email}
                  onChange={(e) => {
                    setEmail(e.target.value);
                    setError(null);
                  }}
                />
              )}
            </Field>
            <ErrorAlert message={error !== t.required ? error : null} />
            <button type="submit" className="primary block" disabled={busy}>
              {busy ? t.submitting : t.submit}
            </button>
          </form>
        )}
        <p className="auth-links center">
          <button type="button" className="link" onClick={onBack}>
            {fr.common.backToLogin}
          </button>
        </p>
      </main>
    </div>
  );
}
