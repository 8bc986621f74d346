import { createEngine, fetchHttp, MemoryStore } from '../../engine/src';
import { CATCH_UP_MAX_SLOTS, CATCH_UP_WINDOW_MS } from '../../engine/src/runs/schedules';
import { MemService, TestClock } from './helpers';

/**
 * Schedule catch-up (docs "Automations", "Schedules"): slots missed while no engine fired them (a
 * process down, a leader stalled until another took over) fire once each, late, oldest first,
 * when they are at most CATCH_UP_WINDOW_MS old (at most CATCH_UP_MAX_SLOTS of them); older ones
 * pass, standing in for by the latest only when none is that recent.
 */

const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);

function setup(store: MemoryStore, clock: TestClock) {
  return createEngine({ store, service: new MemService(), http: fetchHttp(), clock, autoTick: false });
}

async function slotsOf(store: MemoryStore, automationId: string): Promise<number[]> {
  const runs = await store.listRuns({ automationId, limit: 1000 });
  return runs.map((r) => Date.parse(r.trigger.variables.scheduledAt as string)).sort((a, b) => a - b);
}

describe('engine: schedule catch-up', () => {
  test('slots missed within the window fire once each, in order, across engines; none twice', async () => {
    const store = new MemoryStore();
    const clock = new TestClock(T0);
    const first = setup(store, clock);
    const a = await first.createAutomation({
      workspaceId: 'ws1',
      ownerId: 'u1',
      definition: { name: 'Every second', trigger: { type: 'schedule', cron: '* * * * * *' }, actions: [] },
    });
    clock.advance(2000);
    await first.tick();
    expect(await slotsOf(store, a.id)).toEqual([T0 + 1000, T0 + 2000]);
    // The first engine stalls; another fires what was missed meanwhile, once each.
    clock.advance(30_000);
    const second = setup(store, clock);
    await second.tick();
    await second.tick();
    const expected = Array.from({ length: 32 }, (_, i) => T0 + 1000 * (i + 1));
    expect(await slotsOf(store, a.id)).toEqual(expected);
    // The stalled one, woken, fires nothing again.
    await first.tick();
    expect(await slotsOf(store, a.id)).toEqual(expected);
    const runs = await store.listRuns({ automationId: a.id, limit: 1000 });
    const late = runs.find((r) => r.trigger.variables.scheduledAt === new Date(T0 + 3000).toISOString())!;
    expect(late.trigger.variables.firedAt).toBe(new Date(T0 + 32_000).toISOString());
    await first.stop();
    await second.stop();
  });

  test('past the window: at most the latest slots within it; long ago, only the latest slot', async () => {
    const store = new MemoryStore();
    const clock = new TestClock(T0);
    const engine = setup(store, clock);
    const perSecond = await engine.createAutomation({
      workspaceId: 'ws1',
      ownerId: 'u1',
      definition: { name: 'Every second', trigger: { type: 'schedule', cron: '* * * * * *' }, actions: [] },
    });
    const daily = await engine.createAutomation({
      workspaceId: 'ws1',
      ownerId: 'u1',
      definition: { name: 'Daily', trigger: { type: 'schedule', cron: '0 0 * * *' }, actions: [] },
    });
    // Ten minutes down: an every-second schedule fires its latest CATCH_UP_MAX_SLOTS slots (all within the window).
    clock.advance(CATCH_UP_WINDOW_MS * 2);
    await engine.tick();
    const now = clock.now();
    expect(await slotsOf(store, perSecond.id)).toEqual(
      Array.from({ length: CATCH_UP_MAX_SLOTS }, (_, i) => now - 1000 * (CATCH_UP_MAX_SLOTS - 1 - i)),
    );
    // Three days down: a daily schedule fires its latest slot once.
    clock.advance(3 * 86_400_000);
    await engine.tick();
    expect(await slotsOf(store, daily.id)).toEqual([Date.UTC(2025, 0, 9, 0, 0, 0)]);
    await engine.stop();
  });
});
