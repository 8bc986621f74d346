import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { getAllPages } from './paging';
import { currentId } from './params';
import { requestItems, seg } from './transport';

/** Members of the selected project, by handle (for assignees). */
export async function getMembers(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const projectId = currentId(this, 'projectId');
	if (!projectId) return [];
	const members = (await getAllPages.call(this, `/api/v1/projects/${seg(projectId)}/members`, Infinity)) as Array<{
		handle: string;
		displayName?: string;
	}>;
	return members.map((m) => ({
		name: m.displayName ? `${m.displayName} (@${m.handle})` : `@${m.handle}`,
		value: m.handle,
	}));
}

/** Custom fields defined on the selected project, named with their type. */
export async function getFields(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const projectId = currentId(this, 'projectId');
	if (!projectId) return [];
	const fields = (await requestItems.call(this, {
		method: 'GET',
		path: `/api/v1/projects/${seg(projectId)}/fields`,
	})) as Array<{ id: string; name?: string; type?: string; data?: { type?: string; displayName?: string; title?: string } }>;
	return fields.map((f) => {
		const name = f.name ?? f.data?.displayName ?? f.data?.title ?? f.id;
		const type = f.type ?? f.data?.type;
		return { name: type ? `${name} (${type})` : name, value: f.id };
	});
}

/** Project templates of the selected folder. */
export async function getTemplates(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const folderId = currentId(this, 'folderId');
	if (!folderId) return [];
	const templates = (await getAllPages.call(
		this,
		`/api/v1/folders/${seg(folderId)}/project-templates`,
		Infinity,
	)) as Array<{ id: string; name: string }>;
	return templates.map((t) => ({ name: t.name, value: t.id }));
}

/**
 * The caller's workspaces as name/value options (`GET /workspaces`): the trigger's
 * workspace filter, and the workspace and folder list searches.
 */
export async function getWorkspaces(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const workspaces = (await requestItems.call(this, { method: 'GET', path: '/api/v1/workspaces' })) as Array<{
		id: string;
		name: string;
	}>;
	return workspaces.map((w) => ({ name: w.name, value: w.id }));
}
