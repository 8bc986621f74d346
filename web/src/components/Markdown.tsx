import ReactMarkdown from 'react-markdown';

/**
 * User or model text as markdown (agent answers, markdown notes). react-markdown builds React
 * elements from the markdown syntax tree and drops raw HTML, and its URL filter drops
 * `javascript:` links, so nothing is ever inserted as HTML; links get `rel="noopener noreferrer nofollow"`.
 * Import it lazily (`lazy(() => import(...))`) so the renderer stays out of the first screen.
 */
export default function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown
        skipHtml
        components={{
          a: ({ href, children }) => (
            <a href={href} rel="noopener noreferrer nofollow" target="_blank">
              {children}
            </a>
          ),
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
