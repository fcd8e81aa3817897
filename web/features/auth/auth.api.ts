import type { SignedIn } from "../../lib/api-types.ts";
import { api, ApiError, apiError, unwrap } from "../../lib/api.ts";

/**
 * The pending-login id of the last 202: sent back with the code request and
 * the code, it binds the code to this login, so a stranger who knows only the
 * e-mail can neither try nor burn it (docs/SECURITY.md, "Throttling").
 */
let pendingLogin: string | undefined;
/** The login the last mailed code is bound to: a new login within the minute reuses it (the code already sent). */
let codeSentFor: { email: string; pendingLogin: string | undefined } | undefined;

/** POST /auth/login: 200 signs in, 202 asks for the second factor; any other answer is an error (docs/PRODUCT.md#sign-in). */
export async function loginCall(email: string, password: string): Promise<SignedIn | "2FA_REQUIRED"> {
  const res = await api.auth.login.$post({ json: { email, password } });
  if (res.status === 202) {
    // A body that is not JSON (a proxy's page) still means "code required", only unbound.
    pendingLogin = (await res.json().catch(() => null))?.pending_login;
    return "2FA_REQUIRED";
  }
  // Any other answer, even a 2xx, is a failure: its detail if it has one, else 'Erreur de connexion'.
  if (res.status !== 200) throw await apiError(res);
  return res.json();
}

export const registerCall = (body: { email: string; password: string; first_name: string; last_name: string }) =>
  unwrap(api.auth.register.$post({ json: body }));

/**
 * Asks for a code. A 429 "too soon" means the code mailed less than a minute
 * ago is still the one to type: it is bound to the login that asked for it,
 * so the verification goes on with that login's id.
 */
export async function requestTwoFactorCall(email: string, password: string) {
  try {
    const out = await unwrap(api.auth["2fa"].request.$post({ json: { email, password, pending_login: pendingLogin } }));
    codeSentFor = { email, pendingLogin };
    return out;
  } catch (err) {
    if (err instanceof ApiError && err.status === 429 && codeSentFor?.email === email) pendingLogin = codeSentFor.pendingLogin;
    throw err;
  }
}

export const verifyTwoFactorCall = (email: string, code: string, remember: boolean) =>
  unwrap(api.auth["2fa"].verify.$post({ json: { email, code, remember_device: remember, pending_login: pendingLogin } }));

export const forgotPasswordCall = (email: string) => unwrap(api.auth["forgot-password"].$post({ json: { email } }));

export const validateResetTokenCall = (token: string) => unwrap(api.auth["validate-reset-token"][":token"].$get({ param: { token } }));

export const resetPasswordCall = (token: string, password: string) => unwrap(api.auth["reset-password"].$post({ json: { token, new_password: password } }));
