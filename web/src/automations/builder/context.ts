import { createContext, useContext } from 'react';
import type { Path } from './model';

/** A variable the data picker offers: its template path, a sample value when one is known. */
export interface Variable {
  path: string;
  sample?: unknown;
}

/** A group of variables in the data picker (the trigger, one earlier step, the loop, the run). */
export interface VariableGroup {
  label: string;
  variables: Variable[];
}

/** What every field of the builder reads besides its own value. */
export interface BuilderContextValue {
  /** The workspace the automation belongs to (pickers list its objects). */
  workspaceId: string | undefined;
  /** The message to show at the field at `path`; `leaf` fields also take their sub-paths' problems. */
  problemAt(path: Path, leaf: boolean): string | undefined;
  /** The variables a template field at `path` can insert (the trigger, the steps before it, …). */
  variablesFor(path: Path): VariableGroup[];
  /** The draft's value at `path` (a piece field reads its step's `type` and `connectionId`). */
  valueAt?(path: Path): unknown;
}

/** See {@link BuilderContextValue}. */
export const BuilderContext = createContext<BuilderContextValue>({
  workspaceId: undefined,
  problemAt: () => undefined,
  variablesFor: () => [],
});

/** The builder's context. */
export function useBuilder(): BuilderContextValue {
  return useContext(BuilderContext);
}

/** A DOM id for the field at `path` (labels, `aria-describedby`). */
export function fieldId(path: Path, suffix = ''): string {
  return `f-${path.join('-').replace(/[^A-Za-z0-9_-]/g, '_')}${suffix}`;
}

/** A human label for a property without a `title`: `timeoutMs` → "Timeout ms". */
export function humanize(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_.-]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
