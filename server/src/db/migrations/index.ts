import type { Migration } from '../migrate';
import { m001Initial } from './001_initial';

/**
 * Every schema migration, in order. Add a file `NNN_name.ts` exporting a {@link Migration}
 * and list it here; never edit one that has shipped.
 */
export const migrations: Migration[] = [m001Initial];
