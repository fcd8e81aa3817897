import { html as indexHtml } from "../../build/web/manifest.ts";
import { frOps } from "../i18n/fr-ops.ts";

/** What keeps a shared copy out of search engines and keeps its address (the token) from leaking to the sites it links to. */
const HEAD = '<meta name="robots" content="noindex, nofollow, noarchive"><meta name="referrer" content="no-referrer">';

/**
 * The SPA's index.html for a shared page (web/features/sharing/shared-page.tsx
 * renders it from GET /api/shared/{token}): the same scripts (so the CSP's
 * hash of the boot script still holds), plus the noindex and no-referrer metas.
 */
export const sharedPageHtml = indexHtml.replace("<head>", `<head>${HEAD}`);

/** A revoked, deleted or unknown link: a 404 page, noindex too. */
export const sharedNotFoundHtml = `<!doctype html><html lang="fr"><head>${HEAD}<meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${frOps.sharedNotFound.title}</title></head><body><main><h1>${frOps.sharedNotFound.heading}</h1><p>${frOps.sharedNotFound.text}</p><p><a href="/">${frOps.sharedNotFound.back}</a></p></main></body></html>`;
