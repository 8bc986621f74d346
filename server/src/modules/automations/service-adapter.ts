import type { Service, ServiceContext, TaskDatePoint } from '@taskspace/engine';
import type { Actor } from '../../auth/tokens';
import { transaction } from '../../platform/db/connection';
import { sql } from '../../platform/db/statements';
import { setAssignees } from '../tasks/assignees';
import { runAgentCommand } from '../conversations/service';
import { setTaskFieldValue } from '../fields/service';
import { fieldValueBody } from '../fields/schemas';
import { setNote } from '../tasks/notes';
import { setTaskDate, type DatePointInput } from '../tasks/dates';
import { createTasks, deleteTask, moveTask, setTaskCompleted, updateTask } from '../tasks/service';
import { assigneesBody, createTasksBody, moveTaskBody, taskNoteBody, updateTaskBody } from '../tasks/schemas';
import { notFound, ServiceError } from '../../errors';
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

  /** The automation owner as an actor with the run's depth. @throws ServiceError 404 when the owner no longer exists. */
  private actor(ctx: ServiceContext): Actor {
    const row = sql<[string], { userId: string; handle: string; displayName: string; plan: string; rateTier: string; verified: number }>(
      this.svc.db,
      'SELECT id AS userId, handle, display_name AS displayName, plan, rate_tier AS rateTier, verified FROM users WHERE id = ?',
    ).get(ctx.ownerId);
    if (!row) throw new ServiceError(404, 'NOT_FOUND', 'the automation owner no longer exists');
    return { ...row, verified: row.verified === 1, depth: ctx.depth };
  }

  /**
   * Refuses a project or agent outside the automation's own workspace, even one its owner can
   * reach elsewhere: ids often come from templated trigger data (an inbound webhook body), and a
   * run's outputs are readable by every member of the automation's workspace.
   * @throws ServiceError 404 (a permanent step failure) for an unknown or foreign resource.
   */
  private inWorkspace(ctx: ServiceContext, table: 'projects' | 'agents', id: string): void {
    const row = sql<[string], { workspace_id: string }>(this.svc.db, `SELECT workspace_id FROM ${table} WHERE id = ?`).get(id);
    if (!row || row.workspace_id !== ctx.workspaceId) throw notFound(table === 'projects' ? 'project' : 'agent', id);
  }

  /** Runs a domain write on a project of the automation's workspace once per (run, step) and wakes the event workers. */
  private once<T>(ctx: ServiceContext, projectId: string, change: (actor: Actor) => T): T {
    const { db } = this.svc;
    const result = transaction(db, () => {
      const prior = sql<[string, string], { output_json: string }>(db, 'SELECT output_json FROM automation_effects WHERE run_id = ? AND step_id = ?').get(
        ctx.runId,
        ctx.stepId,
      );
      if (prior) return JSON.parse(prior.output_json) as T;
      this.inWorkspace(ctx, 'projects', projectId);
      const out = change(this.actor(ctx));
      sql(db, 'INSERT INTO automation_effects (run_id, step_id, output_json, created_at) VALUES (?, ?, ?, ?)').run(
        ctx.runId,
        ctx.stepId,
        JSON.stringify(out ?? null),
        this.svc.clock.now(),
      );
      return out;
    });
    this.svc.signals?.notify('events');
    return result;
  }

  async createTask(ctx: ServiceContext, p: { projectId: string; text: string; referenceTaskId?: string; placement?: string }) {
    return this.once(ctx, p.projectId, (actor) => {
      const task: Record<string, unknown> = { contentType: 'text/markdown', content: p.text, taskId: p.referenceTaskId ?? null };
      if (p.placement !== undefined) task.placement = p.placement;
      const body = this.svc.inputs.check(createTasksBody, { tasks: [task] });
      return createTasks(this.svc, actor, p.projectId, body.tasks)[0];
    });
  }

  async updateTask(ctx: ServiceContext, p: { projectId: string; taskId: string; text: string }) {
    return this.once(ctx, p.projectId, (actor) => {
      const body = this.svc.inputs.check(updateTaskBody, { contentType: 'text/markdown', content: p.text });
      return updateTask(this.svc, actor, p.projectId, p.taskId, body);
    });
  }

  async completeTask(ctx: ServiceContext, p: { projectId: string; taskId: string }) {
    return this.once(ctx, p.projectId, (actor) => setTaskCompleted(this.svc, actor, p.projectId, p.taskId, true));
  }

  async uncompleteTask(ctx: ServiceContext, p: { projectId: string; taskId: string }) {
    return this.once(ctx, p.projectId, (actor) => setTaskCompleted(this.svc, actor, p.projectId, p.taskId, false));
  }

  async deleteTask(ctx: ServiceContext, p: { projectId: string; taskId: string }) {
    return this.once(ctx, p.projectId, (actor) => {
      deleteTask(this.svc, actor, p.projectId, p.taskId);
      return { deleted: true, taskId: p.taskId };
    });
  }

  async assignTask(ctx: ServiceContext, p: { projectId: string; taskId: string; handles: string[] }) {
    return this.once(ctx, p.projectId, (actor) => {
      const body = this.svc.inputs.check(assigneesBody, { handles: p.handles });
      return setAssignees(this.svc, actor, p.projectId, p.taskId, body.handles);
    });
  }

  async setTaskDate(ctx: ServiceContext, p: { projectId: string; taskId: string; start?: TaskDatePoint; end?: TaskDatePoint }) {
    const side = (point: TaskDatePoint | undefined): DatePointInput | null =>
      point ? { date: point.date, time: point.time || null, timezone: point.timezone || null } : null;
    return this.once(ctx, p.projectId, (actor) => setTaskDate(this.svc, actor, p.projectId, p.taskId, { start: side(p.start), end: side(p.end) }));
  }

  async setTaskNote(ctx: ServiceContext, p: { projectId: string; taskId: string; type: string; value: string }) {
    return this.once(ctx, p.projectId, (actor) => {
      const body = this.svc.inputs.check(taskNoteBody, { type: p.type, value: p.value });
      return setNote(this.svc, actor, p.projectId, p.taskId, body);
    });
  }

  async setTaskField(ctx: ServiceContext, p: { projectId: string; taskId: string; fieldId: string; value: string | number | boolean }) {
    return this.once(ctx, p.projectId, (actor) => {
      const body = this.svc.inputs.check(fieldValueBody, { value: p.value });
      setTaskFieldValue(this.svc, actor, p.projectId, p.taskId, p.fieldId, body.value);
      return { taskId: p.taskId, fieldId: p.fieldId, value: p.value };
    });
  }

  async moveTask(ctx: ServiceContext, p: { projectId: string; taskId: string; targetTaskId: string; position: string }) {
    return this.once(ctx, p.projectId, (actor) => {
      const body = this.svc.inputs.check(moveTaskBody, { target: { taskId: p.targetTaskId, position: p.position } });
      return moveTask(this.svc, actor, p.projectId, p.taskId, body.target);
    });
  }

  /** Output: `{text, conversationId, conversation}` (text = the model's answer). */
  async runAgentCommand(ctx: ServiceContext, p: { agentId: string; command: string; input: string }) {
    this.inWorkspace(ctx, 'agents', p.agentId);
    const conversation = await runAgentCommand(this.svc, this.actor(ctx), p.agentId, { command: p.command, input: p.input });
    const answer = [...conversation.data.messages].reverse().find((m) => m.role === 'assistant');
    return { text: answer?.content ?? '', conversationId: conversation.id, conversation };
  }

  async projectFolders(workspaceId: string, projectId: string): Promise<string[]> {
    return sql<[string, string], { id: string }>(
      this.svc.db,
      `WITH RECURSIVE chain(id, parent_id, depth) AS (
         SELECT f.id, f.parent_id, 0 FROM projects p JOIN folders f ON f.id = p.folder_id WHERE p.id = ? AND p.workspace_id = ?
         UNION ALL
         SELECT f.id, f.parent_id, c.depth + 1 FROM folders f JOIN chain c ON f.id = c.parent_id WHERE c.depth < 64
       )
       SELECT id FROM chain ORDER BY depth`,
    )
      .all(projectId, workspaceId)
      .map((r) => r.id);
  }
}
