/** The four legal pages of the footer (docs/PRODUCT.md#footer); their texts load with the modal. */
export const LEGAL_PAGES = ["mentions", "cgu", "cgv", "privacy"] as const;
export type LegalPage = (typeof LEGAL_PAGES)[number];
