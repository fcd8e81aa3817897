import { lazy, Suspense } from "react";

/**
 * The Markdown renderer (react-markdown, remark-gfm: the largest part of the
 * app's code) is its own chunk, fetched only once a conversation is near:
 * when the question box gets focus, the history opens or an answer shows.
 */
type View = typeof import("./markdown-view.tsx");
let loading: Promise<View> | undefined;
let loaded: View | undefined;
export const preloadMarkdown = () =>
  (loading ??= import("./markdown-view.tsx").then((m) => {
    loaded = m;
    return m;
  }));

const LazyView = lazy(() => preloadMarkdown().then((m) => ({ default: m.MarkdownView })));

/** Model output as safe Markdown (see markdown-view.tsx); plain text for the instant its chunk is still on its way. */
export function Markdown({ text }: { text: string }) {
  // Once the chunk is here, render at once: no fallback frame, nothing moves.
  if (loaded) return <loaded.MarkdownView text={text} />;
  return (
    <Suspense
      fallback={
        <div className="markdown">
          <p className="message-text">{text}</p>
        </div>
      }
    >
      <LazyView text={text} />
    </Suspense>
  );
}
