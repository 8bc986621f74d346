import type { INodeProperties } from 'n8n-workflow';

/** The automation an operation works on (its ID, from the automation's page or Get Many). */
export const automationIdProperty: INodeProperties = {
	displayName: 'Automation ID',
	name: 'automationId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 9s0dF3kq2bX1aPzQ7wYt4A',
	description: 'ID of the automation (see Get Many, or the automation page of the Taskspace web app)',
};
