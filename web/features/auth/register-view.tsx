import { type FormEvent, useState } from "react";
import { Field } from "../../components/ui/field.tsx";
import { PasswordInput } from "../../components/ui/password-input.tsx";
import { fr } from "../../i18n/fr.ts";
import { errorText } from "../../lib/api.ts";
import type { LegalPage } from "../legal/legal-pages.ts";
import { PlanSummaries } from "./marketing-panels.tsx";
import { type RegisterErrors, type RegisterValues, validateRegister } from "./register-validation.ts";
import { ErrorAlert } from "../../components/ui/error-alert.tsx";
import { AuthCard, SubmitButton, SwitchPrompt } from "./auth-card.tsx";

const t = fr.register;
type Text = Exclude<keyof RegisterValues, "terms">;

export function RegisterView({
  onSubmit,
  onLogin,
  onOpenLegal,
}: {
  onSubmit: (v: { email: string; password: string; first_name: string; last_name: string }) => Promise<void>;
  onLogin: () => void;
  onOpenLegal: (page: LegalPage) => void;
}) {
  const [v, setV] = useState<RegisterValues>({ firstName: "", lastName: "", email: "", password: "", confirm: "", terms: false });
  const [errors, setErrors] = useState<RegisterErrors>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // Editing a field clears that field's error (docs/PRODUCT.md#register).
  function set<K extends keyof RegisterValues>(key: K, value: RegisterValues[K]) {
    setV((old) => ({ ...old, [key]: value }));
    setErrors((old) => (old[key] ? { ...old, [key]: undefined } : old));
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const found = validateRegister(v);
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    setBusy(true);
    setError(null);
    try {
      await onSubmit({ email: v.email.trim(), password: v.password, first_name: v.firstName.trim(), last_name: v.lastName.trim() });
    } catch (err) {
      setError(errorText(err, t.error));
      setBusy(false);
    }
  }

  const text = (key: Text, label: string, type: string, autoComplete: string) => (
    <Field label={label} error={errors[key]}>
      {(a) => <input {...a} type={type} name={key} autoComplete={autoComplete} value={v[key]} onChange={(e) => set(key, e.target.value)} />}
    </Field>
  );

  return (
    <AuthCard titleId="register-title" title={t.title} wide>
      <p className="muted">{t.subtitle}</p>
      <form onSubmit={submit} noValidate>
        <div className="grid-2">
          {text("firstName", t.firstName, "text", "given-name")}
          {text("lastName", t.lastName, "text", "family-name")}
        </div>
        {text("email", t.email, "email", "email")}
        <div className="grid-2">
          <Field label={t.password} error={errors.password} hint={t.passwordHint}>
            {(a) => <PasswordInput {...a} name="password" autoComplete="new-password" value={v.password} onChange={(e) => set("password", e.target.value)} />}
          </Field>
          <Field label={t.confirm} error={errors.confirm}>
            {(a) => <PasswordInput {...a} name="confirm" autoComplete="new-password" value={v.confirm} onChange={(e) => set("confirm", e.target.value)} />}
          </Field>
        </div>
        <div className={`check${errors.terms ? " has-error" : ""}`}>
          <input
            id="terms"
            type="checkbox"
            checked={v.terms}
            aria-label={t.termsAria}
            aria-invalid={!!errors.terms}
            aria-describedby={errors.terms ? "terms-err" : undefined}
            onChange={(e) => set("terms", e.target.checked)}
          />
          {/* The links sit beside the label, not inside it: a button inside a label would toggle the box too. */}
          <span>
            <label htmlFor="terms">{t.termsBefore.trim()}</label>{" "}
            <button type="button" className="link" onClick={() => onOpenLegal("cgu")}>
              {t.termsCgu}
            </button>
            {t.termsAnd}
            <button type="button" className="link" onClick={() => onOpenLegal("cgv")}>
              {t.termsCgv}
            </button>
          </span>
        </div>
        {errors.terms && (
          <small id="terms-err" className="field-error block-error">
            {errors.terms}
          </small>
        )}
        <div className="info-box">
          <p>
            <strong>{t.trialInfo}</strong>
          </p>
          <PlanSummaries />
        </div>
        <ErrorAlert message={error} />
        <SubmitButton busy={busy} label={t.submit} busyLabel={t.submitting} />
      </form>
      <p className="auth-links center">
        <SwitchPrompt question={t.haveAccount} action={t.login} onClick={onLogin} />
      </p>
    </AuthCard>
  );
}
