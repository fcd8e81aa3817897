import { fr } from "../../i18n/fr.ts";

const e = fr.register.errors;

export type RegisterValues = {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  confirm: string;
  terms: boolean;
};
export type RegisterErrors = Partial<Record<keyof RegisterValues, string>>;

/** The spec's basic {email} form: something@something.something, no spaces. */
export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The register rules of docs/PRODUCT.md#register, in that order and those words. */
export function validateRegister(v: RegisterValues): RegisterErrors {
  const errors: RegisterErrors = {};
  if (!v.firstName.trim()) errors.firstName = e.firstName;
  if (!v.lastName.trim()) errors.lastName = e.lastName;
  if (!v.email.trim()) errors.email = e.emailRequired;
  else if (!EMAIL_RE.test(v.email.trim())) errors.email = e.emailFormat;
  if (!v.password) errors.password = e.passwordRequired;
  else if (v.password.length < 6) errors.password = e.passwordLength;
  if (v.confirm !== v.password) errors.confirm = e.mismatch;
  if (!v.terms) errors.terms = e.terms;
  return errors;
}

export type ResetCriteria = { length: boolean; lower: boolean; upper: boolean; digit: boolean; match: boolean };

/** Reset password rules (docs/PRODUCT.md#password-reset), each shown live. */
export function resetCriteria(password: string, confirm: string): ResetCriteria {
  return {
    length: password.length >= 8,
    lower: /[a-z]/.test(password),
    upper: /[A-Z]/.test(password),
    digit: /\d/.test(password),
    match: password.length > 0 && password === confirm,
  };
}
