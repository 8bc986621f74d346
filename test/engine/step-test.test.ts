import { createEngine, fetchHttp, MemoryStore, type RunRecord } from '../../engine/src';
import { waitFor } from '../helpers/wait';
import { MemService, TestClock } from './helpers';

/** Step tests in the engine (`engine/src/steps/step-test.ts`): one step with pinned samples; a test cut short is never resumed. */
describe('engine step tests', () => {
  const definition = {
    name: 'Two steps',
    trigger: { type: 'task.added' },
    actions: [
      { id: 'make', type: 'task.create', projectId: 'p1', text: 'first' },
      { id: 'greet', type: 'set', values: { msg: 'Hi {{ trigger.nodeText }} {{ steps.make.id }}' } },
    ],
  };

  test('runs only the step, with the pinned outputs, as a test run', async () => {
    const store = new MemoryStore();
    const service = new MemService();
    const engine = createEngine({ store, service, http: fetchHttp(), clock: new TestClock(), autoTick: false });
    await engine.start();
    try {
      const automation = await engine.createAutomation({ workspaceId: 'ws', ownerId: 'u1', definition });
      const result = await engine.testStep(automation, {
        definition: automation.definition,
        stepId: 'greet',
        trigger: { nodeText: 'Ann' },
        steps: { make: { id: 't9' } },
      });
      expect(result.step).toMatchObject({ stepId: 'greet', status: 'succeeded', output: { msg: 'Hi Ann t9' } });
      expect(result.run).toMatchObject({ status: 'completed', test: true });
      expect(service.calls.filter((c) => c.op === 'createTask')).toEqual([]);
    } finally {
      await engine.stop();
    }
  });

  test('a step-test run found unfinished (a crash) ends failed instead of running the whole definition', async () => {
    const store = new MemoryStore();
    const service = new MemService();
    const clock = new TestClock();
    const first = createEngine({ store, service, http: fetchHttp(), clock, autoTick: false });
    const automation = await first.createAutomation({ workspaceId: 'ws', ownerId: 'u1', definition });
    const run: RunRecord = {
      id: 'cut-short',
      automationId: automation.id,
      version: 1,
      workspaceId: 'ws',
      ownerId: 'u1',
      status: 'running',
      trigger: { type: 'task.added', variables: { nodeText: 'Ann' } },
      depth: 1,
      test: true,
      dedupeKey: 'step-test:greet',
      createdAt: clock.now(),
      startedAt: clock.now(),
    };
    await store.createRun(run);
    const engine = createEngine({ store, service, http: fetchHttp(), clock, autoTick: false });
    await engine.start();
    try {
      const ended = await waitFor(async () => {
        const r = await store.getRun('cut-short');
        return r?.status === 'failed' && r;
      }, 'the interrupted step test to end');
      expect(ended.error?.code).toBe('STEP_TEST_INTERRUPTED');
      expect(await store.getSteps('cut-short')).toEqual([]);
      expect(service.calls).toEqual([]);
    } finally {
      await engine.stop();
    }
  });
});
