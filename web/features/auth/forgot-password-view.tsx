import { type FormEvent, useState } from "react";
import { fr } from "../../i18n/fr.ts";
import { errorText } from "../../lib/api.ts";
import { ErrorAlert } from "../../components/ui/error-alert.tsx";
import { AuthCard, BackToLogin, EmailField, SubmitButton, SuccessNote } from "./auth-card.tsx";

const t = fr.forgot;

/** Form, then success or error (docs/PRODUCT.md#password-reset). The answer never says whether the account exists. */
export function ForgotPasswordView({ onSubmit, onBack }: { onSubmit: (email: string) => Promise<{ success: boolean }>; onBack: () => void }) {
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
    <AuthCard titleId="forgot-title" title={done ? t.successTitle : t.title}>
      {done ? (
        <SuccessNote>{t.success}</SuccessNote>
      ) : (
        <form onSubmit={submit} noValidate>
          <p className="muted">{t.intro}</p>
          <EmailField
            label={fr.common.email}
            placeholder={fr.common.emailPlaceholder}
            value={email}
            error={error === t.required ? error : null}
            onChange={(value) => {
              setEmail(value);
              setError(null);
            }}
          />
          <ErrorAlert message={error !== t.required ? error : null} />
          <SubmitButton busy={busy} label={t.submit} busyLabel={t.submitting} />
        </form>
      )}
      <BackToLogin onClick={onBack} />
    </AuthCard>
  );
}
