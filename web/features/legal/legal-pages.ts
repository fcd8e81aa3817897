/** The four legal pages of the footer (spec section 2); their texts load with the modal. */
export const LEGAL_PAGES = ["mentions", "cgu", "cgv", "privacy"] as const;
export type LegalPage = (typeof LEGAL_PAGES)[number];
