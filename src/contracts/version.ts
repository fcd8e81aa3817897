/** The product's version: /api/health, `unisson --version`, the SPA footer and Stripe's appInfo all read it here. */
export const APP_VERSION = "2.4";
