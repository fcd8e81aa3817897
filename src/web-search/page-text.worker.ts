/**
 * The page reading worker (a Bun Worker kept warm by src/web-search/page-reader.ts,
 * stopped when a page takes too long or after a minute without work): each
 * page's main text by Readability on happy-dom, one page at a time, answered
 * with its job's id. Nothing here touches the database or the network.
 * Listed as an entry point of the executable (scripts/build-binary.ts).
 */
import { mainText, type PageJob } from "./page-text.ts";

declare const self: Worker;

self.onmessage = async (event: MessageEvent<PageJob & { id: number }>) => {
  const { id, html, contentType, url } = event.data;
  try {
    self.postMessage({ id, text: await mainText(html, contentType, url) });
  } catch {
    self.postMessage({ id, text: null });
  }
};
