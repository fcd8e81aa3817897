import { type FormEvent, useEffect, useRef, useState } from "react";
import type { PublicUser } from "../../lib/api-types.ts";
import { Field } from "../../components/ui/field.tsx";
import { ShieldIcon } from "../../components/ui/icons.tsx";
import { fr } from "../../i18n/fr.ts";
import { ApiError, errorText } from "../../lib/api.ts";
import { minSec } from "../../lib/format.ts";
import { useCountdown } from "./use-countdown.ts";
import { ErrorAlert } from "../../components/ui/error-alert.tsx";
import { AuthCard, SubmitButton, SuccessNote } from "./auth-card.tsx";

const t = fr.twoFactor;
/** docs/PRODUCT.md#two-factor: a code lives 600 s; a new one may be asked after 60 s. */
export const CODE_TTL_S = 600;
export const RESEND_AFTER_S = 60;

export function TwoFactorView({
  email,
  requestCode,
  verify,
  onDone,
  onCancel,
}: {
  email: string;
  requestCode: () => Promise<unknown>;
  verify: (code: string, remember: boolean) => Promise<{ user: PublicUser; token: string }>;
  onDone: (user: PublicUser, token: string) => void;
  onCancel: () => void;
}) {
  const { remaining, restart } = useCountdown(CODE_TTL_S);
  const [code, setCode] = useState("");
  const [remember, setRemember] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [success, setSuccess] = useState(false);
  const requested = useRef(false);
  const doneTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  async function send(isResend: boolean) {
    setError(null);
    setInfo(null);
    try {
      await requestCode();
      restart();
      if (isResend) setInfo(t.sent);
    } catch (err) {
      const wait = isResend ? undefined : codeSentSecondsAgo(err);
      if (wait === undefined) return setError(errorText(err, t.requestError));
      // Back on the screen within the minute: the code mailed then is still the one to type, with its own time left.
      restart(CODE_TTL_S - wait);
      setInfo(t.alreadySent);
    }
  }

  // The code is asked for once on entering the screen (docs/PRODUCT.md#two-factor); the ref survives StrictMode's double effect.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once on entering the screen, whatever `send` closes over later.
  useEffect(() => {
    if (requested.current) return;
    requested.current = true;
    void send(false);
  }, []);
  useEffect(() => () => clearTimeout(doneTimer.current), []);

  const valid = /^\d{6}$/.test(code);
  const resendWait = remaining - (CODE_TTL_S - RESEND_AFTER_S);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy || success) return;
    if (!valid) {
      setError(t.invalidFormat);
      return;
    }
    setBusy(true);
    setError(null);
    setInfo(null);
    try {
      const { user, token } = await verify(code, remember);
      setSuccess(true);
      // 'Connexion réussie !' stays one second before the app opens (docs/PRODUCT.md#two-factor).
      doneTimer.current = setTimeout(() => {
        try {
          onDone(user, token);
        } catch {
          setSuccess(false);
          setBusy(false);
          setError(fr.login.finalizeError);
        }
      }, 1000);
    } catch (err) {
      setError(errorText(err, t.verifyError));
      setCode("");
      setBusy(false);
    }
  }

  return (
    <AuthCard
      titleId="tfa-title"
      title={t.title}
      icon={
        <div className="tfa-icon" aria-hidden="true">
          <ShieldIcon size={28} />
        </div>
      }
    >
      <p className="muted">
        {t.intro} <strong>{email}</strong>
      </p>
      {success ? (
        <SuccessNote>{t.success}</SuccessNote>
      ) : (
        <form onSubmit={submit} noValidate>
          <Field label={t.code}>
            {(a) => (
              <input
                {...a}
                className="code-input"
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                placeholder={t.codePlaceholder}
                value={code}
                onChange={(e) => setCode(e.target.value.replace(/\D/g, "").slice(0, 6))}
                data-autofocus
              />
            )}
          </Field>
          <p className={`countdown${remaining === 0 ? " expired" : ""}`} aria-live="off">
            {remaining > 0 ? t.validFor(minSec(remaining)) : t.expired}
          </p>
          <div className="check">
            <input id="remember" type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
            <label htmlFor="remember">{t.remember}</label>
          </div>
          <ErrorAlert message={error} />
          {info && <SuccessNote>{info}</SuccessNote>}
          <SubmitButton busy={busy} disabled={!valid} label={t.verify} busyLabel={t.verifying} />
          <div className="button-row">
            <button type="button" className="secondary" disabled={resendWait > 0} onClick={() => void send(true)}>
              {resendWait > 0 ? t.resendIn(minSec(resendWait)) : t.resend}
            </button>
            <button type="button" className="secondary" onClick={onCancel}>
              {t.cancel}
            </button>
          </div>
          <p className="muted small spam-tip">{t.spamTip}</p>
        </form>
      )}
    </AuthCard>
  );
}

/**
 * The server refuses a new code within 60 s of the last one (429, Retry-After
 * = seconds until a new one may be asked): how long ago that code was sent,
 * or undefined for any other failure.
 */
function codeSentSecondsAgo(err: unknown): number | undefined {
  if (!(err instanceof ApiError) || err.status !== 429 || err.retryAfter === undefined) return undefined;
  if (err.retryAfter > RESEND_AFTER_S) return undefined;
  return RESEND_AFTER_S - err.retryAfter;
}
