/**
 * The one inline script of index.html, run before the stylesheet and the
 * main module are parsed. It adds a `modulepreload` for the chunks of the
 * screen the page is about to show (the app with a stored session, the
 * login screen otherwise), so they download beside the main script instead
 * of after it; with a stored session it also starts the app's first API
 * calls (web/lib/early.ts). It decides as web/app.tsx `opensSignedIn` does,
 * from the same storage keys, the same test of the stored user (an
 * unreadable one is no session: the login screen, its chunks, no API call)
 * and the same reset address; on a shared page (/partage/…) it does
 * nothing. When the two disagreed, a page with an
 * unreadable user downloaded the app's chunks and started its API calls,
 * then asked for the login screen's chunks only once the main script had
 * run: the slowest first screen of all, which timed out in a loaded run. The CSP allows it by its hash, not by
 * 'unsafe-inline' (src/lib/http-middleware.ts).
 */
import { createHash } from "node:crypto";
import { LEGACY_TOKEN_KEY, TOKEN_KEY, USER_KEY } from "../web/lib/api.ts";
import { EARLY_CALLS, EARLY_GLOBAL } from "../web/lib/early.ts";

export function bootScript(screens: { signedIn: string[]; signedOut: string[] }): { html: string; cspHash: string } {
  const q = JSON.stringify;
  const code =
    // A shared copy (/partage/…) is neither screen: it loads its own chunk and calls nothing for the visitor's session.
    `(function(s,c){try{if(location.pathname.indexOf("/partage/")===0)return;var g=function(k){return localStorage.getItem(k)},u=new URL(location.href),t=g(${q(TOKEN_KEY)})||g(${q(LEGACY_TOKEN_KEY)}),` +
    // The user must parse as web/lib/storage.ts readStoredSession reads it: an unreadable one opens the login screen.
    `r=function(){try{var v=JSON.parse(g(${q(USER_KEY)}));return !!v&&typeof v==="object"&&typeof v.id==="number"&&typeof v.email==="string"}catch(x){return false}},` +
    `i=t&&r()&&!u.searchParams.get("token")&&u.pathname.indexOf("reset-password")<0;` +
    `(i?s.signedIn:s.signedOut).forEach(function(h){var l=document.createElement("link");l.rel="modulepreload";l.href=h;document.head.appendChild(l)});` +
    `if(i){var e=window[${q(EARLY_GLOBAL)}]={token:t};Object.keys(c).forEach(function(k){(e[k]=fetch(c[k],{headers:{Authorization:"Bearer "+t}}))["catch"](function(){})})}` +
    `}catch(x){}})(${q(screens)},${q(EARLY_CALLS)})`;
  return { html: `<script>${code}</script>`, cspHash: `'sha256-${createHash("sha256").update(code).digest("base64")}'` };
}
