import { useEffect, useState } from 'react';
import { Check, Copy } from 'lucide-react';

/**
 * Copies `value` to the clipboard; says "Copied" for 2 s afterwards (and announces it). `label`
 * names what is copied for assistive technology ("Copy the invitation link").
 */
export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setFailed(false);
      setCopied(true);
    } catch {
      setFailed(true);
    }
  };
  return (
    <button type="button" className="btn-secondary btn-sm" aria-label={label} onClick={() => void copy()}>
      {copied ? <Check className="icon icon-sm" aria-hidden="true" /> : <Copy className="icon icon-sm" aria-hidden="true" />}
      <span aria-live="polite">{copied ? 'Copied' : failed ? 'Select and copy' : 'Copy'}</span>
    </button>
  );
}

/** A value shown once (a link, token or secret) in a monospace box with its {@link CopyButton}. */
export function CopyField({ value, label }: { value: string; label: string }) {
  return (
    <div className="copy-field">
      <code>{value}</code>
      <CopyButton value={value} label={label} />
    </div>
  );
}
