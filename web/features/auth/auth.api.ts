import type { PublicUser } from "../../../src/users/users.view.ts";
import { api, apiError, unwrap } from "../../lib/api.ts";

export type SignedIn = { user: PublicUser; token: string };

/** POST /auth/login: 200 signs in, 202 asks for the second factor; any other answer is an error (spec section 7). */
export async function loginCall(email: string, password: string): Promise<SignedIn | "2FA_REQUIRED"> {
  const res = await api.auth.login.$post({ json: { email, password } });
  const status: number = res.status;
  if (status === 202) return "2FA_REQUIRED";
  // Any other answer, even a 2xx, is a failure: its detail if it has one, else 'Erreur de connexion'.
  if (status !== 200) throw await apiError(res);
  return (await res.json()) as SignedIn;
}

export const registerCall = (body: { email: string; password: string; first_name: string; last_name: string }) =>
  unwrap(api.auth.register.$post({ json: body }));

export const requestTwoFactorCall = (email: string, password: string) =>
  unwrap(api.auth["2fa"].request.$post({ json: { email, password } }));

export const verifyTwoFactorCall = (email: string, code: string, remember: boolean) =>
  unwrap(api.auth["2fa"].verify.$post({ json: { email, code, remember_device: remember } }));

export const forgotPasswordCall = (email: string) => unwrap(api.auth["forgot-password"].$post({ json: { email } }));

export const validateResetTokenCall = (token: string) =>
  unwrap(api.auth["validate-reset-token"][":token"].$get({ param: { token } }));

export const resetPasswordCall = (token: string, password: string) =>
  unwrap(api.auth["reset-password"].$post({ json: { token, new_password: password } }));
