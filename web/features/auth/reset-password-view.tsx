import { type FormEvent, useEffect, useState } from "react";
import { Field } from "../../components/ui/field.tsx";
import { CheckIcon, CloseIcon } from "../../components/ui/icons.tsx";
import { PasswordInput } from "../../components/ui/password-input.tsx";
import { fr } from "../../i18n/fr.ts";
import type { TokenCheck } from "../../lib/api-types.ts";
import { errorText } from "../../lib/api.ts";
import { resetCriteria } from "./register-validation.ts";
import { ErrorAlert } from "../../components/ui/error-alert.tsx";
import { AuthCard, BackToLogin, SubmitButton, SuccessNote } from "./auth-card.tsx";

const t = fr.reset;

type State = { step: "validating" } | { step: "invalid"; message: string } | { step: "valid"; check: TokenCheck } | { step: "success" };

/** Validating, then valid (form with live criteria) or invalid, then success (docs/PRODUCT.md#password-reset). */
export function ResetPasswordView({
  token,
  validate,
  reset,
  onLogin,
  onForgot,
}: {
  token: string | null;
  validate: (token: string) => Promise<TokenCheck>;
  reset: (token: string, password: string) => Promise<unknown>;
  onLogin: () => void;
  onForgot: () => void;
}) {
  const [state, setState] = useState<State>({ step: "validating" });
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    if (!token) {
      setState({ step: "invalid", message: t.tokenInvalid });
      return;
    }
    validate(token).then(
      (check) => live && setState(check.valid ? { step: "valid", check } : { step: "invalid", message: t.invalid }),
      (err) => live && setState({ step: "invalid", message: errorText(err, t.validateError) }),
    );
    return () => {
      live = false;
    };
  }, [token, validate]);

  const c = resetCriteria(password, confirm);
  const ok = c.length && c.lower && c.upper && c.digit && c.match;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!ok || busy || !token) return;
    setBusy(true);
    setError(null);
    try {
      await reset(token, password);
      setState({ step: "success" });
    } catch (err) {
      setError(errorText(err, t.error));
      setBusy(false);
    }
  }

  return (
    <AuthCard
      titleId="reset-title"
      title={state.step === "invalid" ? t.invalidTitle : state.step === "success" ? t.successTitle : t.title}
      busy={state.step === "validating"}
    >
      {state.step === "validating" && (
        <p className="muted" role="status">
          <span className="spinner" aria-hidden="true" /> {t.validating}
        </p>
      )}
      {state.step === "invalid" && (
        <>
          <ErrorAlert message={state.message} />
          <button type="button" className="primary block" onClick={onForgot}>
            {t.newLink}
          </button>
        </>
      )}
      {state.step === "success" && (
        <>
          <SuccessNote>{t.success}</SuccessNote>
          <button type="button" className="primary block" onClick={onLogin}>
            {fr.login.submit}
          </button>
        </>
      )}
      {state.step === "valid" && (
        <form onSubmit={submit} noValidate>
          {state.check.email && (
            <p className="muted">
              {t.forAccount} <strong>{state.check.email}</strong>
            </p>
          )}
          {state.check.expires_in_minutes != null && <p className="muted small">{t.expiresIn(state.check.expires_in_minutes)}</p>}
          <Field label={t.password}>
            {(a) => <PasswordInput {...a} name="new-password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />}
          </Field>
          <Field label={t.confirm}>
            {(a) => <PasswordInput {...a} name="confirm" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />}
          </Field>
          <p className="small muted">{t.criteriaTitle}</p>
          <ul className="criteria" aria-live="polite">
            {(["length", "lower", "upper", "digit", "match"] as const).map((k) => (
              <li key={k} className={c[k] ? "met" : "unmet"} data-met={c[k]}>
                {c[k] ? <CheckIcon size={16} /> : <CloseIcon size={16} />} {c[k] ? t.met[k] : t.criteria[k]}
              </li>
            ))}
          </ul>
          <ErrorAlert message={error} />
          <p className="small muted">{t.revokes}</p>
          <SubmitButton busy={busy} disabled={!ok} label={t.submit} busyLabel={t.submitting} />
        </form>
      )}
      <BackToLogin onClick={onLogin} />
    </AuthCard>
  );
}
