import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";

type MdNode = { type: string; depth?: number; children?: MdNode[] };

/**
 * A model's headings never skip a level on the page (axe heading-order): the first is at most an h2 (the
 * page's h1 or a dialog's h2 comes before any answer), each next one at most one deeper than the one
 * before it. "# A" then "### B" becomes h2 then h3.
 */
function evenHeadings() {
  return (tree: MdNode) => {
    let previous = 1;
    const walk = (node: MdNode) => {
      if (node.type === "heading" && node.depth) {
        node.depth = Math.max(2, Math.min(node.depth, previous + 1));
        previous = node.depth;
      }
      for (const child of node.children ?? []) walk(child);
    };
    walk(tree);
  };
}

/** GitHub-flavoured Markdown: tables, strikethrough, task lists and bare URLs as links (remark-gfm); headings evened out. */
const PLUGINS = [remarkGfm, evenHeadings];

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
