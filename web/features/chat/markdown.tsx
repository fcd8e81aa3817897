import ReactMarkdown from "react-markdown";

/**
 * Model output as Markdown. react-markdown builds React elements from a
 * syntax tree and never injects HTML: raw HTML in an answer is dropped
 * (skipHtml), and its default urlTransform neutralises javascript: links.
 */
export function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown
        skipHtml
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
