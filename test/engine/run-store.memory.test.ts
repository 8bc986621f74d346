import { MemoryStore } from '../../engine/src';
import { describeRunStore } from './run-store-contract';

/** The RunStore conformance suite (run-store-contract.ts) on the engine's in-memory store: a new one per test. */
describeRunStore('MemoryStore', async () => ({
  fresh: async () => new MemoryStore(),
  worker: async (name) => `worker-${name}`,
  close: async () => undefined,
}));
