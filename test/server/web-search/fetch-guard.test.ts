import { describe, expect, test } from "bun:test";
import { useFakeProviders } from "../chat/chat.helpers.ts";
import { askWithWeb, useFakePages, useFakeSearxng, webApp } from "./web-search.helpers.ts";

const fakes = useFakeProviders();
const searx = useFakeSearxng();
// Two servers: one on 127.0.0.1 (never to be reached without the flag), one on 127.0.0.2 (an operator's allowed "intranet").
const insidePages = useFakePages("127.0.0.1");
const allowedPages = useFakePages("127.0.0.2");

const asked = () => fakes().control.callsOf("answer")[0]!.messages.at(-1)!.content;
const NO_FLAG = { WEB_FETCH_ALLOW_PRIVATE: "false" };

/** A question whose one result redirects from the allowed server (127.0.0.2, the operator's "intranet") to `target`. */
async function askThroughRedirect(target: string) {
  searx().results = () => [{ url: allowedPages().url(`/redirect?to=${encodeURIComponent(target)}`), title: "Redirection", content: "Extrait." }];
  const t = await webApp(fakes(), searx(), { WEB_FETCH_ALLOW_PRIVATE: "127.0.0.2/32" });
  await askWithWeb(t);
}

describe("page fetches go only to public addresses", () => {
  test("a loopback address is never fetched without WEB_FETCH_ALLOW_PRIVATE: the source keeps only its snippet", async () => {
    searx().results = () => [{ url: insidePages().url("/article/secret-ip"), title: "Interne", content: "Extrait public." }];
    const t = await webApp(fakes(), searx(), NO_FLAG);
    const { answer } = await askWithWeb(t);
    expect(answer!.status).toBe(200);
    expect(insidePages().hits).not.toContain("/article/secret-ip");
    expect(asked()).toContain("Extrait public.");
  });

  test("a name that resolves to loopback (localhost) is refused after resolution", async () => {
    searx().results = () => [{ url: insidePages().url("/article/secret-name", "localhost"), title: "Interne", content: "Extrait du nom local." }];
    const t = await webApp(fakes(), searx(), NO_FLAG);
    await askWithWeb(t);
    expect(insidePages().hits).not.toContain("/article/secret-name");
    expect(asked()).toContain("Extrait du nom local.");
  });

  test("an IPv4-mapped IPv6 address of loopback (from the resolver) is refused", async () => {
    searx().results = () => [
      { url: `http://pages.example:${new URL(insidePages().url("/")).port}/article/secret-mapped`, title: "Interne", content: "Extrait." },
    ];
    const t = await webApp(fakes(), searx(), NO_FLAG);
    t.deps.ai.web!.resolve = async () => [{ address: "::ffff:127.0.0.1", family: 6 }];
    await askWithWeb(t);
    expect(insidePages().hits).not.toContain("/article/secret-mapped");
  });

  test("a redirect from an allowed address to a private one is not followed", async () => {
    await askThroughRedirect(insidePages().url("/article/secret-redirect"));
    expect(allowedPages().hits).toContain("/redirect");
    expect(insidePages().hits).not.toContain("/article/secret-redirect");
  });

  test("an address the operator allows is read, through a redirect too", async () => {
    await askThroughRedirect(allowedPages().url("/article/intranet"));
    expect(allowedPages().hits).toContain("/article/intranet");
    expect(asked()).toContain("Selon la page intranet");
  });

  test("the connection goes to the address checked after resolution, not to a second lookup", async () => {
    searx().results = () => [{ url: `http://pages.example:${new URL(insidePages().url("/")).port}/article/resolved`, title: "Résolue", content: "Extrait." }];
    const t = await webApp(fakes(), searx());
    t.deps.ai.web!.resolve = async () => [{ address: "127.0.0.1", family: 4 }];
    await askWithWeb(t);
    expect(insidePages().hits).toContain("/article/resolved");
    expect(asked()).toContain("Selon la page resolved");
  });
});
