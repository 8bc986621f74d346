import type { AgentMcpServer, AgentToolSet, EmailParams, FindTasksParams, Service, ServiceContext, TaskDatePoint } from '@taskspace/engine';
import { ACTOR_USER_COLUMNS, actorUserOf, type Actor, type ActorUserRow } from '../../auth/tokens';
import type { Query, Sql } from '../../platform/db/query';
import { listAssignees, setAssignees } from '../tasks/assignees';
import { addComment } from '../comments/service';
import { createProject, createWorkspaceProject } from '../projects/service';
import { getTask } from '../tasks/service';
import { listFields, listTaskFieldValues } from '../fields/service';
import { findTasks } from './find-tasks';
import { runAgentCommand } from '../conversations/service';
import { agentItem } from '../agents/records';
import type { Agent } from '../agents/agent-data';
import { queueAutomationMail } from '../mail/automation-mail';
import { setTaskFieldValue } from '../fields/service';
import { fieldValueBody } from '../fields/schemas';
import { setNote } from '../tasks/notes';
import { setTaskDate, type DatePointInput } from '../tasks/dates';
import { deleteTask, moveTask, setTaskCompleted, updateTask } from '../tasks/service';
import { createTaskBatch } from '../tasks/create';
import type { Task } from '../tasks/records';
import { assigneesBody, createTasksBody, moveTaskBody, taskNoteBody, updateTaskBody } from '../tasks/schemas';
import { busy, notFound, ServiceError } from '../../errors';
import { isRetryableConflict } from '../../platform/db/query';
import type { Services } from '../../services';

/**
 * The engine's {@link Service} port over the service's own domain functions: task actions and
 * agent commands go through exactly the logic the API uses (access checks, validation, limits,
 * events), acting as the automation's owner with the run's depth on the actor, so the events
 * they raise carry it (loop guard). Before a domain function runs, the action's parameters are
 * put in the shape of the matching route's body and checked against that route's own schema
 * (`svc.inputs`), so a refused input fails the step with the route's `{field, reason}` (e.g.
 * `tasks[0].content`, `target.position`).
 *
 * Task actions are exactly-once: the change and its result row in `automation_effects` (keyed
 * by run and step) commit in one transaction; a step repeated after a crash finds the row and
 * returns the recorded result instead of acting again. Agent commands call a model outside the
 * database, so they are at-least-once.
 */
export class DomainServiceAdapter implements Service {
  constructor(private readonly svc: Services) {}

  /**
   * Runs a domain write on a project of the automation's workspace once per (run, step), in one
   * transaction with its `automation_effects` row, and wakes the event workers. `change` does its
   * work through the transaction handle it is given.
   */
  private async once<T>(ctx: ServiceContext, projectId: string, change: (tx: Sql, actor: Actor) => Query<T>): Promise<T> {
    return this.onceIn(ctx, projectId, { table: 'projects', id: projectId }, change);
  }

  /**
   * {@link once} with its own workspace check (`guard`: the resource that must be in the
   * automation's workspace, none for a write to the workspace itself) and write lane (a project or
   * folder id).
   */
  private async onceIn<T>(
    ctx: ServiceContext,
    lane: string,
    guard: WorkspaceGuard | undefined,
    change: (tx: Sql, actor: Actor) => Query<T>,
  ): Promise<T> {
    const { svc } = this;
    // Through the task writes' group commit: on SQLite it shares their transactions, on
    // PostgreSQL it takes its turn in the project's lane instead of colliding with them. Writes of
    // other processes can still collide with it past every attempt: 503 BUSY, a transient error,
    // so the step is retried by its policy instead of failing the run.
    const result = await svc.writes
      .run(function* (tx): Query<T> {
        const before = yield* beforeWrite(tx, ctx, guard);
        if (before.priorOutput !== null) return JSON.parse(before.priorOutput) as T;
        const out = yield* change(tx, before.actor());
        yield* tx.run('INSERT INTO automation_effects (run_id, step_id, output_json, created_at) VALUES (?, ?, ?, ?)', [
          ctx.runId,
          ctx.stepId,
          JSON.stringify(out ?? null),
          svc.clock.now(),
        ]);
        return out;
      }, lane)
      .catch((error: unknown) => {
        throw isRetryableConflict(error) ? busy() : error;
      });
    svc.signals?.notify('events');
    return result;
  }

  async createTask(ctx: ServiceContext, p: { projectId: string; text: string; referenceTaskId?: string; placement?: string }) {
    const { svc } = this;
    return this.once(ctx, p.projectId, function* (tx, actor) {
      const task: Record<string, unknown> = { contentType: 'text/markdown', content: p.text, taskId: p.referenceTaskId ?? null };
      if (p.placement !== undefined) task.placement = p.placement;
      const body = svc.inputs.check(createTasksBody, { tasks: [task] });
      // The batch without a transaction of its own: the write's savepoint already undoes it whole.
      const [outcome] = yield* createTaskBatch(tx, [{ svc, actor, projectId: p.projectId, tasks: body.tasks }]);
      if (!outcome!.ok) throw outcome!.error;
      return (outcome!.value as Task[])[0];
    });
  }

  async updateTask(ctx: ServiceContext, p: { projectId: string; taskId: string; text: string }) {
    const { svc } = this;
    return this.once(ctx, p.projectId, function* (tx, actor) {
      const body = svc.inputs.check(updateTaskBody, { contentType: 'text/markdown', content: p.text });
      return yield* updateTask(svc, actor, p.projectId, p.taskId, body, tx);
    });
  }

  async completeTask(ctx: ServiceContext, p: { projectId: string; taskId: string }) {
    return this.once(ctx, p.projectId, (tx, actor) => setTaskCompleted(this.svc, actor, p.projectId, p.taskId, true, tx));
  }

  async uncompleteTask(ctx: ServiceContext, p: { projectId: string; taskId: string }) {
    return this.once(ctx, p.projectId, (tx, actor) => setTaskCompleted(this.svc, actor, p.projectId, p.taskId, false, tx));
  }

  async deleteTask(ctx: ServiceContext, p: { projectId: string; taskId: string }) {
    const { svc } = this;
    return this.once(ctx, p.projectId, function* (tx, actor) {
      yield* deleteTask(svc, actor, p.projectId, p.taskId, tx);
      return { deleted: true, taskId: p.taskId };
    });
  }

  async assignTask(ctx: ServiceContext, p: { projectId: string; taskId: string; handles: string[] }) {
    const { svc } = this;
    return this.once(ctx, p.projectId, function* (tx, actor) {
      const body = svc.inputs.check(assigneesBody, { handles: p.handles });
      return yield* setAssignees(svc, actor, p.projectId, p.taskId, body.handles, tx);
    });
  }

  async setTaskDate(ctx: ServiceContext, p: { projectId: string; taskId: string; start?: TaskDatePoint; end?: TaskDatePoint }) {
    const side = (point: TaskDatePoint | undefined): DatePointInput | null =>
      point ? { date: point.date, time: point.time || null, timezone: point.timezone || null } : null;
    return this.once(ctx, p.projectId, (tx, actor) =>
      setTaskDate(this.svc, actor, p.projectId, p.taskId, { start: side(p.start), end: side(p.end) }, tx),
    );
  }

  async setTaskNote(ctx: ServiceContext, p: { projectId: string; taskId: string; type: string; value: string }) {
    const { svc } = this;
    return this.once(ctx, p.projectId, function* (tx, actor) {
      const body = svc.inputs.check(taskNoteBody, { type: p.type, value: p.value });
      return yield* setNote(svc, actor, p.projectId, p.taskId, body, tx);
    });
  }

  async setTaskField(ctx: ServiceContext, p: { projectId: string; taskId: string; fieldId: string; value: string | number | boolean }) {
    const { svc } = this;
    return this.once(ctx, p.projectId, function* (tx, actor) {
      const body = svc.inputs.check(fieldValueBody, { value: p.value });
      yield* setTaskFieldValue(svc, actor, p.projectId, p.taskId, p.fieldId, body.value, tx);
      return { taskId: p.taskId, fieldId: p.fieldId, value: p.value };
    });
  }

  async moveTask(ctx: ServiceContext, p: { projectId: string; taskId: string; targetTaskId: string; position: string }) {
    const { svc } = this;
    return this.once(ctx, p.projectId, function* (tx, actor) {
      const body = svc.inputs.check(moveTaskBody, { target: { taskId: p.targetTaskId, position: p.position } });
      return yield* moveTask(svc, actor, p.projectId, p.taskId, body.target, tx);
    });
  }

  /** `comment.create`: {@link addComment}, as `POST .../comments`; output: the comment. */
  async createComment(ctx: ServiceContext, p: { projectId: string; taskId: string; text: string }) {
    return this.once(ctx, p.projectId, (tx, actor) => addComment(this.svc, actor, p.projectId, p.taskId, p.text, tx));
  }

  /** `task.get`: the task (Viewer) with `assignees` and `fields` (`[{fieldId, name, value}]`, value null when unset). */
  async getTask(ctx: ServiceContext, p: { projectId: string; taskId: string }) {
    const { svc } = this;
    return this.read(ctx, p.projectId, function* (q, actor) {
      const task = yield* getTask(svc, actor, p.projectId, p.taskId, q);
      const names = new Map((yield* listFields(svc, actor, p.projectId, q)).map((f) => [f.id, f.name]));
      const values = yield* listTaskFieldValues(svc, actor, p.projectId, p.taskId, q);
      const assignees = yield* listAssignees(svc, actor, p.projectId, p.taskId, q);
      return { ...task, assignees, fields: values.map((v) => ({ fieldId: v.fieldId, name: names.get(v.fieldId) ?? '', value: v.value })) };
    });
  }

  /** `task.find`: pages of {@link listTasks} (same filters as `GET .../tasks`) narrowed by a field value. */
  async findTasks(ctx: ServiceContext, p: FindTasksParams) {
    const { svc } = this;
    return this.read(ctx, p.projectId, (q, actor) => findTasks(svc, actor, p, q));
  }

  /** `project.create`: {@link createProject} into `folderId`, or {@link createWorkspaceProject} into the workspace's home folder. */
  async createProject(ctx: ServiceContext, p: { folderId?: string; name: string; content: string }) {
    const input = { contentType: 'text/markdown' as const, content: `# ${p.name}\n\n${p.content}` };
    const folderId = p.folderId;
    if (folderId === undefined) {
      return this.onceIn(ctx, ctx.workspaceId, undefined, (tx, actor) =>
        createWorkspaceProject(this.svc, actor, ctx.workspaceId, input, tx),
      );
    }
    return this.onceIn(ctx, folderId, { table: 'folders', id: folderId }, (tx, actor) =>
      createProject(this.svc, actor, folderId, input, tx),
    );
  }

  /** `email.send`: {@link queueAutomationMail}, exactly once per step; the senders are woken. */
  async sendEmail(ctx: ServiceContext, p: EmailParams) {
    const out = await this.onceIn(ctx, ctx.workspaceId, undefined, (tx) => queueAutomationMail(tx, this.svc, ctx, p));
    this.svc.signals?.notify('mail');
    return out;
  }

  /** A read as the automation's owner, of a project of the automation's workspace. */
  private read<T>(ctx: ServiceContext, projectId: string, op: (q: Sql, actor: Actor) => Query<T>): Promise<T> {
    return this.svc.store.run(
      (function* (q: Sql): Query<T> {
        yield* inWorkspace(q, ctx, 'projects', projectId);
        return yield* op(q, yield* ownerActor(q, ctx));
      })(this.svc.store.sql),
    );
  }

  /** Output: `{text, conversationId, conversation}` (text = the model's answer). */
  async runAgentCommand(ctx: ServiceContext, p: { agentId: string; command: string; input: string; tools?: AgentToolSet }) {
    const actor = await this.svc.store.run(
      (function* (q: Sql): Query<Actor> {
        yield* inWorkspace(q, ctx, 'agents', p.agentId);
        return yield* ownerActor(q, ctx);
      })(this.svc.store.sql),
    );
    const conversation = await runAgentCommand(this.svc, actor, p.agentId, { command: p.command, input: p.input }, p.tools);
    const answer = [...conversation.data.messages].reverse().find((m) => m.role === 'assistant');
    return { text: answer?.content ?? '', conversationId: conversation.id, conversation };
  }

  /** The agent's own MCP servers (its `data.mcpServers`), of an agent of the automation's workspace. */
  async agentMcpServers(ctx: ServiceContext, agentId: string): Promise<AgentMcpServer[]> {
    const agent = await this.svc.store.run(
      (function* (q: Sql): Query<Agent> {
        yield* inWorkspace(q, ctx, 'agents', agentId);
        return yield* agentItem(q, agentId);
      })(this.svc.store.sql),
    );
    return agent.data.mcpServers;
  }

  async projectFolders(workspaceId: string, projectId: string): Promise<string[]> {
    const rows = await this.svc.store.run(
      this.svc.store.sql.all<{ id: string }>(
        `WITH RECURSIVE chain(id, parent_id, depth) AS (
           SELECT f.id, f.parent_id, 0 FROM projects p JOIN folders f ON f.id = p.folder_id WHERE p.id = ? AND p.workspace_id = ?
           UNION ALL
           SELECT f.id, f.parent_id, c.depth + 1 FROM folders f JOIN chain c ON f.id = c.parent_id WHERE c.depth < 64
         )
         SELECT id FROM chain ORDER BY depth`,
        [projectId, workspaceId],
      ),
    );
    return rows.map((r) => r.id);
  }
}

/** The automation owner as an actor with the run's depth and cause (this automation and run). @throws ServiceError 404 when the owner no longer exists. */
export function* ownerActor(
  q: Sql,
  ctx: Pick<ServiceContext, 'ownerId' | 'depth'> & Partial<Pick<ServiceContext, 'automationId' | 'runId'>>,
): Query<Actor> {
  const row = yield* q.get<OwnerRow>(`SELECT ${OWNER_COLUMNS} FROM users u WHERE u.id = ?`, [ctx.ownerId]);
  return actorFromRow(row, ctx);
}

/** The columns of {@link OwnerRow}, from `users u`. */
const OWNER_COLUMNS = ACTOR_USER_COLUMNS;

/** The automation owner's row as {@link OWNER_COLUMNS} reads it (every column null when the owner is gone). */
type OwnerRow = ActorUserRow;

/** {@link ownerActor} from its row. @throws ServiceError 404 when the owner no longer exists (no row, or a row of nulls). */
function actorFromRow(
  row: OwnerRow | undefined,
  ctx: Pick<ServiceContext, 'ownerId' | 'depth'> & Partial<Pick<ServiceContext, 'automationId' | 'runId'>>,
): Actor {
  if (!row || row.userId === null) throw new ServiceError(404, 'NOT_FOUND', 'the automation owner no longer exists');
  const actor: Actor = { ...actorUserOf(row), depth: ctx.depth };
  if (ctx.automationId !== undefined && ctx.runId !== undefined) actor.cause = { automationId: ctx.automationId, runId: ctx.runId };
  return actor;
}

/** A resource a write must find in the automation's workspace (see {@link inWorkspace}). */
interface WorkspaceGuard {
  table: 'projects' | 'folders';
  id: string;
}

/**
 * The statement of {@link beforeWrite} for each guard table (none: `workspace`): the step's
 * recorded output, the guarded resource's workspace and the owner, in one round trip.
 */
const BEFORE_WRITE = Object.fromEntries(
  (['projects', 'folders', 'workspace'] as const).map((table) => [
    table,
    `SELECT (SELECT output_json FROM automation_effects WHERE run_id = ? AND step_id = ?) AS "priorOutput",
            ${table === 'workspace' ? 'NULL' : `(SELECT workspace_id FROM ${table} WHERE id = ?)`} AS "guardWorkspaceId",
            ${OWNER_COLUMNS}
       FROM (SELECT 1 AS one) AS one LEFT JOIN users u ON u.id = ?`,
  ]),
) as Record<WorkspaceGuard['table'] | 'workspace', string>;

/**
 * What a write of the engine reads first, in one statement: the output the step already recorded
 * (a repeated step returns it and does nothing), else the `guard` check ({@link inWorkspace}) and
 * the owner to act as.
 * @returns `priorOutput` (JSON, null when the step has not written), and `actor()`.
 * @throws ServiceError 404 when there is no prior output and the guarded resource is not in the
 *   automation's workspace; `actor()` throws 404 when the owner no longer exists.
 */
function* beforeWrite(
  q: Sql,
  ctx: ServiceContext,
  guard: WorkspaceGuard | undefined,
): Query<{ priorOutput: string | null; actor: () => Actor }> {
  const params: unknown[] = [ctx.runId, ctx.stepId];
  if (guard) params.push(guard.id);
  params.push(ctx.ownerId);
  const row = (yield* q.get<OwnerRow & { priorOutput: string | null; guardWorkspaceId: string | null }>(
    BEFORE_WRITE[guard?.table ?? 'workspace'],
    params,
  ))!;
  if (row.priorOutput === null && guard && row.guardWorkspaceId !== ctx.workspaceId) throw notFound(guard.table.slice(0, -1), guard.id);
  return { priorOutput: row.priorOutput, actor: () => actorFromRow(row, ctx) };
}

/** The tables {@link inWorkspace} checks, with their own statement (texts are constants). */
const WORKSPACE_OF = {
  projects: 'SELECT workspace_id FROM projects WHERE id = ?',
  agents: 'SELECT workspace_id FROM agents WHERE id = ?',
  folders: 'SELECT workspace_id FROM folders WHERE id = ?',
} as const;

/**
 * Refuses a project or agent outside the automation's own workspace, even one its owner can
 * reach elsewhere: ids often come from templated trigger data (an inbound webhook body), and a
 * run's outputs are readable by every member of the automation's workspace.
 * @throws ServiceError 404 (a permanent step failure) for an unknown or foreign resource.
 */
function* inWorkspace(q: Sql, ctx: ServiceContext, table: keyof typeof WORKSPACE_OF, id: string): Query<void> {
  const row = yield* q.get<{ workspace_id: string }>(WORKSPACE_OF[table], [id]);
  if (!row || row.workspace_id !== ctx.workspaceId) throw notFound(table.slice(0, -1), id);
}
