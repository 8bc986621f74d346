import Markdown from 'react-markdown';

/**
 * A model's answer as markdown. react-markdown builds React elements from the markdown syntax
 * tree and drops raw HTML, so nothing in an answer is ever inserted as HTML; links get
 * `rel="noopener noreferrer nofollow"`.
 */
export function Answer({ text }: { text: string }) {
  return (
    <div className="answer">
      <Markdown
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
      </Markdown>
    </div>
  );
}
