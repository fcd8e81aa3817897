import { lazy, type ReactNode, Suspense, useState } from "react";
import { goHome } from "../../lib/entry-url.ts";
import type { LegalPage } from "../legal/legal-pages.ts";
import { useSession } from "../session/use-session.ts";
import {
  forgotPasswordCall,
  loginCall,
  registerCall,
  requestTwoFactorCall,
  resetPasswordCall,
  validateResetTokenCall,
  verifyTwoFactorCall,
} from "./auth.api.ts";
import { ForgotPasswordView } from "./forgot-password-view.tsx";
import { LoginView } from "./login-view.tsx";
import { RegisterView } from "./register-view.tsx";
import { ResetPasswordView } from "./reset-password-view.tsx";
import { TwoFactorView } from "./two-factor-view.tsx";

// The legal texts are long and rarely opened: they load with the modal, not with the login screen.
const LegalModal = lazy(() => import("../legal/legal-modal.tsx").then((m) => ({ default: m.LegalModal })));

type View = "login" | "register" | "forgot" | "reset" | "twoFactor";

/** The screens shown while nobody is signed in, chosen by state (docs/PRODUCT.md#auth-screens). */
export function AuthViews({
  initial,
  resetToken,
  onLeaveReset,
}: {
  initial: "login" | "reset";
  resetToken: string | null;
  /** The reset screen was left: the URL is '/' again and a signed-in user may see the app. */
  onLeaveReset?: () => void;
}) {
  const { setSession } = useSession();
  const [view, setView] = useState<View>(initial);
  const [creds, setCreds] = useState<{ email: string; password: string } | null>(null);
  const [legal, setLegal] = useState<LegalPage | null>(null);

  function signedIn(user: Parameters<typeof setSession>[0], token: string) {
    setSession(user, token);
    goHome();
  }
  function leaveReset(next: View) {
    goHome();
    setView(next);
    onLeaveReset?.();
  }

  let screen: ReactNode;
  switch (view) {
    case "twoFactor":
      screen = creds && (
        <TwoFactorView
          email={creds.email}
          requestCode={() => requestTwoFactorCall(creds.email, creds.password)}
          verify={(code, remember) => verifyTwoFactorCall(creds.email, code, remember)}
          onDone={signedIn}
          onCancel={() => {
            setCreds(null);
            setView("login");
          }}
        />
      );
      break;
    case "register":
      screen = (
        <RegisterView
          onSubmit={async (body) => {
            const out = await registerCall(body);
            signedIn(out.user, out.token);
          }}
          onLogin={() => setView("login")}
          onOpenLegal={setLegal}
        />
      );
      break;
    case "forgot":
      screen = <ForgotPasswordView onSubmit={forgotPasswordCall} onBack={() => setView("login")} />;
      break;
    case "reset":
      screen = (
        <ResetPasswordView
          token={resetToken}
          validate={validateResetTokenCall}
          reset={resetPasswordCall}
          onLogin={() => leaveReset("login")}
          onForgot={() => leaveReset("forgot")}
        />
      );
      break;
    default:
      screen = (
        <LoginView
          initialEmail={creds?.email}
          onSubmit={async (email, password) => {
            const out = await loginCall(email, password);
            if (out === "2FA_REQUIRED") {
              setCreds({ email, password });
              setView("twoFactor");
            } else signedIn(out.user, out.token);
          }}
          onForgot={() => setView("forgot")}
          onRegister={() => setView("register")}
        />
      );
  }

  return (
    <>
      {screen}
      {legal && (
        <Suspense fallback={null}>
          <LegalModal page={legal} onClose={() => setLegal(null)} />
        </Suspense>
      )}
    </>
  );
}
