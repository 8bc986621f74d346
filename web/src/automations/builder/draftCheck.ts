import { useCallback, useEffect, useRef } from 'react';
import { api } from '../../api/client';
import { getAt, parseFieldPath, type Definition } from './model';
import type { Problem } from './validate';

/** The service's verdict on a draft, kept until the value it names changes. */
export interface ServerProblem extends Problem {
  /** The value at the path when the verdict came, as JSON. */
  seen: string;
}

/** How long the builder waits after the last edit before asking the service about the draft (ms). */
const CHECK_DELAY_MS = 500;

/** A save error's field and message as a {@link ServerProblem} of `definition` (the path said once, at the field). */
export function serverProblem(definition: Definition, field: string, message: string): ServerProblem {
  const path = parseFieldPath(field);
  return {
    path,
    message: message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message,
    seen: JSON.stringify(getAt(definition, path) ?? null),
  };
}

/**
 * Asks the service (`POST /api/v1/automations/check`, docs "Web app", "Automation builder") what
 * a save of the draft would be refused for: `CHECK_DELAY_MS` after each edit while `ready` (the
 * builder's own checks pass), and at once through the returned function before a save. Answers
 * to older drafts are dropped. `onVerdict` gets the problem, or `null` for a draft that passes.
 * A failed check (network, permissions) says nothing: the save itself then reports it.
 */
export function useDraftCheck(
  workspaceId: string | undefined,
  definition: Definition | null,
  ready: boolean,
  onVerdict: (problem: ServerProblem | null) => void,
): () => Promise<ServerProblem | null | undefined> {
  const asked = useRef(0);
  const verdict = useRef(onVerdict);
  verdict.current = onVerdict;

  const check = useCallback(
    async (draft: Definition): Promise<ServerProblem | null | undefined> => {
      if (!workspaceId) return undefined;
      const mine = ++asked.current;
      const { data } = await api
        .POST('/api/v1/automations/check', { body: { workspaceId, definition: draft } })
        .catch(() => ({ data: undefined }));
      if (!data || mine !== asked.current) return undefined;
      const first = data.problems[0];
      const problem = first ? serverProblem(draft, first.field, first.message) : null;
      verdict.current(problem);
      return problem;
    },
    [workspaceId],
  );

  useEffect(() => {
    if (!ready || !definition) return;
    const timer = setTimeout(() => void check(definition), CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, [ready, definition, check]);

  return useCallback(() => (definition ? check(definition) : Promise.resolve(undefined)), [definition, check]);
}
