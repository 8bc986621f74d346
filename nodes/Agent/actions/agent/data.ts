import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { checkText } from '../../../shared/validation';

/** Tones the service accepts for `data.tone` (the real service's list), alphabetical. */
const TONES = [
	'authoritative', 'casual', 'clinical', 'cold', 'confident', 'creative', 'cynical', 'emotional', 'empathetic', 'formal',
	'friendly', 'humourous', 'informal', 'inspiring', 'ironic', 'optimistic', 'pessimistic', 'playful', 'sarcastic', 'serious',
	'sympathetic', 'tentative', 'warm',
];

/** The AgentData fields (spec section 2), all optional; `name` gives the collection's parameter name. */
export function agentDataFields(name: string, displayName: string): INodeProperties {
	return {
		displayName,
		name,
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Avatar',
				name: 'avatar',
				type: 'string',
				default: '',
				placeholder: 'e.g. 🤖 or https://example.com/avatar.png',
				description: 'An emoji, or the http(s) URL of an image',
			},
			{
				displayName: 'Commands',
				name: 'commands',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				placeholder: 'Add Command',
				description: 'Replaces the whole list of commands',
				options: [
					{
						displayName: 'Command',
						name: 'command',
						values: [
							{ displayName: 'Name', name: 'name', type: 'string', default: '', required: true },
							{
								displayName: 'Prompt',
								name: 'prompt',
								type: 'string',
								typeOptions: { rows: 3 },
								default: '',
								required: true,
								description: 'Instructions; [[input]] is replaced by the input given when the command runs',
								hint: 'Write [[input]] where the input goes. The editor evaluates {{ … }} itself, so {{ input }} typed here would be lost.',
							},
							{
								displayName: 'Answer Mode',
								name: 'mode',
								type: 'options',
								options: [
									{ name: 'Text', value: 'default' },
									{ name: 'Plan and Execute (V1)', value: 'plan-and-execute-v1' },
									{ name: 'Plan and Execute (V2)', value: 'plan-and-execute-v2' },
									{ name: 'JSON Object', value: 'json' },
								],
								default: 'default',
							},
							{
								displayName: 'ID',
								name: 'id',
								type: 'string',
								default: '',
								description: 'Stable ID of the command (letters, digits, _ and -); generated when empty',
							},
						],
					},
				],
			},
			{ displayName: 'Description', name: 'description', type: 'string', typeOptions: { rows: 2 }, default: '' },
			{
				displayName: 'Input Placeholder',
				name: 'inputPlaceholder',
				type: 'string',
				default: '',
				description: "The hint shown in the agent's input box (one line, at most 200 characters)",
			},
			{
				displayName: 'Knowledge Enabled',
				name: 'knowledgeEnabled',
				type: 'boolean',
				default: true,
				description: 'Whether the agent uses its knowledge (projects and media) when answering',
			},
			{
				displayName: 'Language',
				name: 'language',
				type: 'string',
				default: '',
				placeholder: 'e.g. en or pt-BR',
			},
			{
				displayName: 'Tone',
				name: 'tone',
				type: 'options',
				options: TONES.map((tone) => ({ name: tone[0].toUpperCase() + tone.slice(1), value: tone })),
				default: 'friendly',
			},
		],
	};
}

/** Builds AgentData from the collection's values (only the keys the user set). */
export function agentDataOf(ctx: IExecuteFunctions, i: number, fields: IDataObject): IDataObject {
	const data: IDataObject = {};
	for (const key of ['description', 'tone', 'language', 'knowledgeEnabled', 'inputPlaceholder'] as const) {
		if (fields[key] !== undefined && fields[key] !== '') data[key] = fields[key];
	}
	if (typeof fields.avatar === 'string' && fields.avatar.trim() !== '') {
		const value = fields.avatar.trim();
		data.avatar = { type: /^https?:\/\//i.test(value) ? 'image' : 'emoji', data: { value } };
	}
	const commands = (fields.commands as IDataObject | undefined)?.command as IDataObject[] | undefined;
	if (commands) {
		data.commands = commands.map((c, n) => {
			const command: IDataObject = {
				name: checkText(ctx, i, `Command ${n + 1} name`, c.name, { singleLine: true, max: 100 }),
				prompt: checkText(ctx, i, `Command ${n + 1} prompt`, c.prompt),
				mode: c.mode || 'default',
			};
			if (typeof c.id === 'string' && c.id.trim()) command.id = c.id.trim();
			return command;
		});
	}
	return data;
}
