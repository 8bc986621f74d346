import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { showFor } from '../../../shared/router';
import { decide, decisionProperties } from './decide';

export const description = showFor('run', 'approve', decisionProperties);

/** Approves the approval a run waits on; the run continues. */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	return await decide.call(this, i, 'approve');
}
