/** The inbound URL of a webhook or form trigger as a save returns it; `token` only in the answer that generated it. */
export type Inbound = { url?: string; token?: string; formUrl?: string; requiresToken?: boolean };

/** The inbound URL (and form page) of the automation, and its token when this save generated one: shown once. */
export function InboundPanel({ inbound }: { inbound: Inbound }) {
  if (!inbound.url) return null;
  return (
    <div className="card wide" role="status" aria-label="Inbound URL">
      <p>
        Inbound URL: <code>{inbound.url}</code>
      </p>
      {inbound.formUrl && (
        <p>
          Form page:{' '}
          <a
            href={inbound.token ? `${inbound.formUrl}?token=${encodeURIComponent(inbound.token)}` : inbound.formUrl}
            target="_blank"
            rel="noopener noreferrer"
          >
            {inbound.formUrl}
          </a>
        </p>
      )}
      {inbound.token ? (
        <p className="secret">
          Token (shown once — store it now): <code>{inbound.token}</code>
        </p>
      ) : (
        inbound.requiresToken && <p className="muted small">Callers send the token made when it was required (it is not shown again).</p>
      )}
    </div>
  );
}
