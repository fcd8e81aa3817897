import { Readability } from "@mozilla/readability";
import { Window } from "happy-dom";

/** What the page reader's worker is given (page-reader.ts), and what it answers. */
export type PageJob = { html: string; contentType: string; url: string };
export type PageText = { title: string | null; text: string };

/**
 * The main text of a page (Mozilla's Readability, on a happy-dom document
 * that runs no script and loads nothing), whitespace folded; a text/plain
 * page as it is. Null when nothing readable is found.
 */
export async function mainText(html: string, contentType: string, url: string): Promise<PageText | null> {
  if (/^text\/plain/i.test(contentType)) return html.trim() ? { title: null, text: fold(html) } : null;
  const window = new Window({
    url,
    settings: {
      disableJavaScriptEvaluation: true,
      disableJavaScriptFileLoading: true,
      disableCSSFileLoading: true,
      disableIframePageLoading: true,
      disableComputedStyleRendering: true,
      navigation: { disableMainFrameNavigation: true, disableChildFrameNavigation: true, disableChildPageNavigation: true, disableFallbackToSetURL: true },
    },
  });
  try {
    window.document.write(html);
    const article = new Readability(window.document as unknown as Document).parse();
    const text = fold(article?.textContent ?? "");
    return text ? { title: article?.title?.trim() || null, text } : null;
  } finally {
    await window.happyDOM.close();
  }
}

function fold(text: string): string {
  return text
    .replace(/[ \t\u00a0]+/g, " ")
    .replace(/\s*\n\s*/g, "\n")
    .trim();
}
