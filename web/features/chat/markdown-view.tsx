import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";

/** GitHub-flavoured Markdown: tables, strikethrough, task lists and bare URLs as links (remark-gfm). */
const PLUGINS = [remarkGfm];

/**
 * Model output as Markdown. react-markdown builds React elements from a
 * syntax tree and never injects HTML: raw HTML in an answer is dropped
 * (skipHtml), and its default urlTransform neutralises javascript: links.
 * Every link opens in a new tab, without access to this page (noopener noreferrer).
 */
export function MarkdownView({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown
        skipHtml
        remarkPlugins={PLUGINS}
        components={{
          a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer nofollow" />,
          img: ({ node: _node, alt }) => <span>{alt}</span>,
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
