import type { ReactNode } from "react";
import { Brand } from "../../components/ui/brand.tsx";
import { Field } from "../../components/ui/field.tsx";
import { fr } from "../../i18n/fr.ts";

/**
 * The parts every signed-out screen shares (login, registration, two-factor,
 * forgotten and new password): one card under the brand, its title, its
 * submit button, its success note, its way back to the login.
 */
export function AuthCard({
  titleId,
  title,
  wide = false,
  busy,
  icon,
  aside,
  children,
}: {
  titleId: string;
  title: ReactNode;
  wide?: boolean;
  /** aria-busy of the card, while the screen checks something (a reset link). */
  busy?: boolean;
  /** Drawn between the brand and the title. */
  icon?: ReactNode;
  /** Beside the card (the login's marketing panels); without it the card stands alone, centred. */
  aside?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={aside ? "auth-layout" : "auth-layout single"}>
      <main className={wide ? "auth-card wide" : "auth-card"} aria-labelledby={titleId} aria-busy={busy}>
        <Brand />
        {icon}
        <h1 id={titleId}>{title}</h1>
        {children}
      </main>
      {aside}
    </div>
  );
}

/** The form's one primary button: disabled while busy, and saying so. */
export function SubmitButton({ busy, disabled = false, label, busyLabel }: { busy: boolean; disabled?: boolean; label: string; busyLabel: string }) {
  return (
    <button type="submit" className="primary block" disabled={disabled || busy}>
      {busy ? busyLabel : label}
    </button>
  );
}

export function SuccessNote({ children }: { children: ReactNode }) {
  return (
    <p className="alert success" role="status">
      {children}
    </p>
  );
}

export function BackToLogin({ onClick }: { onClick: () => void }) {
  return (
    <p className="auth-links center">
      <button type="button" className="link" onClick={onClick}>
        {fr.common.backToLogin}
      </button>
    </p>
  );
}

/** The e-mail input of the login and forgotten-password forms. */
export function EmailField({
  label,
  placeholder,
  value,
  error,
  onChange,
}: {
  label: string;
  placeholder: string;
  value: string;
  error?: string | null;
  onChange: (value: string) => void;
}) {
  return (
    <Field label={label} error={error}>
      {(a) => (
        <input {...a} type="email" name="email" autoComplete="email" placeholder={placeholder} value={value} onChange={(e) => onChange(e.target.value)} />
      )}
    </Field>
  );
}

/** "No account yet? Sign up" and its reverse: a question, then the way to the other screen. */
export function SwitchPrompt({ question, action, onClick }: { question: string; action: string; onClick: () => void }) {
  return (
    <span>
      {question}{" "}
      <button type="button" className="link" onClick={onClick}>
        {action}
      </button>
    </span>
  );
}
