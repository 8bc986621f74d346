import { MAX_TASK_CONTENT } from '../../nodes/shared/validation';
import { contentTypeProperty, positionOptions } from '../../nodes/shared/descriptions';
import { MAX_PAGE_SIZE as NODE_MAX_PAGE_SIZE } from '../../nodes/shared/paging';
import { description as noteSetDescription } from '../../nodes/Task/actions/note/set.operation';
import { createTasksBody, moveTaskBody, taskNoteBody } from '../../server/src/modules/tasks/schemas';
import { MAX_PAGE_SIZE } from '../../server/src/platform/paging';

/**
 * The n8n package ships alone (no runtime dependencies), so it cannot import the server's
 * schemas; the limits and choices it checks before sending a request are copies. This suite
 * holds each copy to the schema the server validates with, so the two cannot drift apart.
 */

const taskItem = createTasksBody.properties.tasks.items;
const valuesOf = (options: readonly { value: unknown }[] | undefined) => (options ?? []).map((o) => o.value).sort();

describe("the n8n package's checks match the server's schemas", () => {
  test('task content: length limit and content types', () => {
    expect(MAX_TASK_CONTENT).toBe(taskItem.properties.content.maxLength);
    expect(valuesOf(contentTypeProperty.options as { value: string }[])).toEqual([...taskItem.properties.contentType.enum].sort());
  });

  test('insertion positions', () => {
    expect(valuesOf(positionOptions)).toEqual([...moveTaskBody.properties.target.properties.position.enum].sort());
    expect(valuesOf(positionOptions)).toEqual([...taskItem.properties.placement.enum].sort());
  });

  test('note types offered are ones the server accepts', () => {
    const offered = valuesOf(noteSetDescription.find((p) => p.name === 'type')?.options as { value: string }[]);
    expect(offered.length).toBeGreaterThan(0);
    for (const type of offered) expect(taskNoteBody.properties.type.enum).toContain(type);
  });

  test('page size', () => {
    expect(NODE_MAX_PAGE_SIZE).toBe(MAX_PAGE_SIZE);
  });
});
