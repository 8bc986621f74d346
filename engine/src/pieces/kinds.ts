/**
 * Pieces as kinds (docs/integrations.md "How a piece becomes kinds"): each action of each piece
 * of a manifest becomes one action kind `<piece>.<action>` of the engine's one registry, so the
 * catalogue, the save checks, the builder's forms and the step test treat it as any built-in
 * kind. A step holds `connectionId` (required when the piece needs a connection) and `props`
 * (the action's properties, see `props.ts`); its templates are rendered like any step's, and
 * `execute` runs the action in the piece pool through the {@link PieceRunner}.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import type { ActionKind } from '../kinds/executor';
import { permanent } from '../errors';
import { defineAction, defineTrigger, type ActionKindDeclaration, type KindDeclaration, type TriggerKindDeclaration } from '../kinds/kind';
import type { PieceActionInfo, PieceInfo, PieceManifest } from './manifest';
import { coerceProps, propsObject } from './props';
import type { PieceRunner } from './runner';

/** The kind type of a piece's action: `<piece>.<action>`. */
export const pieceKindType = (piece: string, action: string): string => `${piece}.${action}`;

/** The prepared parameters of a piece step. */
export interface PieceStepParams {
  connectionId?: string;
  props: Record<string, unknown>;
}

/** Whether a step of `action` needs a connection. */
export function needsConnection(piece: PieceInfo, action: PieceActionInfo): boolean {
  return piece.auth.length > 0 && piece.auth.some((a) => a.required) && action.requireAuth;
}

function executor(piece: PieceInfo, action: PieceActionInfo, runner: PieceRunner): ActionKind<Record<string, unknown>, PieceStepParams> {
  return {
    prepare(a, scope, templates) {
      const rendered = templates.renderValue(a.props ?? {}, scope, 'props');
      if (!rendered || typeof rendered !== 'object' || Array.isArray(rendered))
        throw permanent('INVALID_INPUT', 'props must be an object', { field: 'props' });
      const params: PieceStepParams = { props: coerceProps(action.props, rendered as Record<string, unknown>) };
      if (typeof a.connectionId === 'string') {
        const id = templates.render(a.connectionId, scope, 'connectionId');
        if (id !== '') params.connectionId = id;
      }
      if (params.connectionId === undefined && needsConnection(piece, action))
        throw permanent('INVALID_INPUT', `a ${piece.displayName} step needs a connection (connectionId)`, { field: 'connectionId' });
      return params;
    },
    async execute(ctx, params, a) {
      return runner.call({
        piece,
        op: 'run',
        action: action.name,
        ...(params.connectionId !== undefined ? { connectionId: params.connectionId } : {}),
        propsValue: params.props,
        context: { workspaceId: ctx.run.workspaceId, automationId: ctx.run.automationId, runId: ctx.run.id, stepName: String(a.id ?? '') },
        http: ctx.http,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
    },
  };
}

/** The parameters of a step of `action`: `connectionId` and `props`. */
export function actionParameters(piece: PieceInfo, action: PieceActionInfo): { schema: ReturnType<typeof Type.Object>; help: string } {
  const { schema: props, help } = propsObject(action.props);
  const connection = Type.String({
    minLength: 1,
    maxLength: 2000,
    title: 'Connection',
    description: `A ${piece.displayName} connection of the workspace (Settings → Connections).`,
    'x-picker': 'connection',
    'x-piece': piece.name,
  });
  const fields: Record<string, TSchema> = {
    connectionId: needsConnection(piece, action) ? connection : Type.Optional(connection),
    props: Object.values(action.props).some((p) => p.required) ? props : Type.Optional(props),
  };
  return { schema: Type.Object(fields), help };
}

/** The action kinds of one piece. */
export function pieceActionKinds(piece: PieceInfo, runner: PieceRunner): ActionKindDeclaration[] {
  return piece.actions.map((action) => {
    const { schema, help } = actionParameters(piece, action);
    const summary = (action.description || action.displayName).replace(/\s+/g, ' ').slice(0, 300);
    return defineAction({
      type: pieceKindType(piece.name, action.name),
      title: action.displayName,
      summary: help ? `${summary}\n\n${help}` : summary,
      category: piece.displayName,
      icon: 'plug',
      parameters: schema,
      sideEffects: true,
      timeout: true,
      ownSchema: true,
      piece: {
        name: piece.name,
        packageName: piece.packageName,
        version: piece.version,
        displayName: piece.displayName,
        authTypes: piece.auth.map((a) => a.type),
      },
      executor: executor(piece, action, runner) as unknown as ActionKindDeclaration['executor'],
    });
  });
}

/** The trigger sources of the trigger strategies Taskspace offers (app webhooks are not offered). */
const SOURCES: Record<string, TriggerKindDeclaration['source']> = { POLLING: 'poll', WEBHOOK: 'piece-webhook' };

/**
 * The trigger kinds of one piece: its POLLING triggers (source `poll`: the host polls them and
 * starts a run per new item, whose fields are the `trigger.*` variables) and its WEBHOOK triggers
 * (source `piece-webhook`: the host registers the automation's URL through the trigger's
 * `onEnable`, and each call to it starts a run per item the trigger's `run` returns).
 * App-webhook triggers are not offered.
 */
export function pieceTriggerKinds(piece: PieceInfo): TriggerKindDeclaration[] {
  return piece.triggers
    .filter((t) => SOURCES[t.strategy] !== undefined)
    .map((trigger) => {
      const { schema, help } = actionParameters(piece, trigger);
      const summary = (trigger.description || trigger.displayName).replace(/\s+/g, ' ').slice(0, 300);
      return defineTrigger({
        type: pieceKindType(piece.name, trigger.name),
        title: trigger.displayName,
        summary: help ? `${summary}\n\n${help}` : summary,
        category: piece.displayName,
        icon: 'plug',
        parameters: schema,
        source: SOURCES[trigger.strategy]!,
        ownSchema: true,
        variables: { names: [], open: true },
        // The piece's own sample of one item: what the builder tests with before a first poll.
        ...(trigger.sampleData ? { example: trigger.sampleData } : {}),
        piece: {
          name: piece.name,
          packageName: piece.packageName,
          version: piece.version,
          displayName: piece.displayName,
          authTypes: piece.auth.map((a) => a.type),
        },
      });
    });
}

/** Every action, polling and webhook trigger kind of `manifest`'s pieces (kinds whose types are in `taken` are skipped). */
export function pieceKinds(manifest: PieceManifest, runner: PieceRunner, taken: ReadonlySet<string> = new Set()): KindDeclaration[] {
  const out: KindDeclaration[] = [];
  const seen = new Set(taken);
  for (const piece of manifest.pieces) {
    for (const kind of [...pieceActionKinds(piece, runner), ...pieceTriggerKinds(piece)]) {
      const key = `${kind.kind}:${kind.type}`;
      if (seen.has(kind.type) || seen.has(key)) continue;
      seen.add(key);
      out.push(kind);
    }
  }
  return out;
}
