import { useState } from 'react';
import { ApiError } from '../../api/client';
import { automationWrites } from '../api';
import { useBuilder } from './context';
import type { KindInfo } from './kinds';
import type { Definition } from './model';

/** A sample item as the trigger's runs get it: an object as it is, anything else as `{item}`. */
function asTrigger(item: unknown): Record<string, unknown> {
  return item && typeof item === 'object' && !Array.isArray(item) ? (item as Record<string, unknown>) : { item };
}

/**
 * "Load sample from <service>" for a piece trigger (Activepieces' "Load data"): asks
 * `POST /automations/kinds/{type}/sample` with the draft trigger's connection and properties and
 * makes the newest item the test payload (and so the data picker's trigger sample).
 */
export function PieceSample({
  kind,
  trigger,
  onPayload,
}: {
  kind: KindInfo | undefined;
  trigger: Definition['trigger'] | undefined;
  onPayload(text: string): void;
}) {
  const { workspaceId } = useBuilder();
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (!kind?.piece || !trigger || !workspaceId) return null;
  const service = kind.piece.displayName;
  const { connectionId, props } = trigger as { connectionId?: unknown; props?: unknown };
  async function load() {
    setBusy(true);
    setError(null);
    setNote(null);
    try {
      const sample = await automationWrites.triggerSample({
        type: trigger!.type,
        workspaceId: workspaceId!,
        ...(typeof connectionId === 'string' && connectionId !== '' ? { connectionId } : {}),
        ...(props && typeof props === 'object' ? { props: props as Record<string, unknown> } : {}),
      });
      if (sample.items.length === 0) {
        setNote(
          sample.source === 'service' ? `${service} has no items for this trigger yet.` : `${service} gives no sample for this trigger.`,
        );
        return;
      }
      onPayload(JSON.stringify(asTrigger(sample.items[0]), null, 2));
      setNote(
        sample.source === 'service'
          ? `The sample is the newest of ${sample.items.length} item${sample.items.length === 1 ? '' : 's'} from ${service}.`
          : `The sample is ${service}'s example for this trigger.`,
      );
    } catch (e) {
      setError(e instanceof ApiError ? e.message : (e as Error).message);
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="piece-sample">
      <button type="button" disabled={busy} onClick={() => void load()}>
        {busy ? `Loading from ${service}…` : `Load sample from ${service}`}
      </button>
      {note && (
        <p className="muted small" role="status">
          {note}
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
