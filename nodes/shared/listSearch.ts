import type { IDataObject, ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

import { getWorkspaces } from './loadOptions';
import { getAllPages } from './paging';
import { currentId } from './params';
import { requestItems, seg } from './transport';

interface Named extends IDataObject {
	id: string;
	name: string;
}

/** Case-insensitive match of a search filter against a label. */
function matches(label: string, filter?: string): boolean {
	return !filter || label.toLowerCase().includes(filter.toLowerCase());
}

/** Every folder of every workspace of the caller (`GET /workspaces`, then their folders). */
async function allFolders(ctx: ILoadOptionsFunctions): Promise<Array<Named & { workspaceName: string }>> {
	const workspaces = await getWorkspaces.call(ctx);
	const out: Array<Named & { workspaceName: string }> = [];
	for (const workspace of workspaces) {
		const folders = (await requestItems.call(ctx, {
			method: 'GET',
			path: `/api/v1/workspaces/${seg(String(workspace.value))}/folders`,
		})) as Array<Named & { isHome?: boolean }>;
		for (const folder of folders) out.push({ ...folder, workspaceName: workspace.name });
	}
	return out;
}

/** Workspaces of the caller, filtered by name. */
export async function searchWorkspaces(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const workspaces = await getWorkspaces.call(this);
	return { results: workspaces.filter((w) => matches(w.name, filter)) };
}

/** Folders of all workspaces, shown as "Workspace / Folder" (the home folder as "Workspace (home)"). */
export async function searchFolders(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const folders = await allFolders(this);
	const results: INodeListSearchItems[] = folders
		.map((f) => ({
			name: f.isHome ? `${f.workspaceName} (home)` : `${f.workspaceName} / ${f.name}`,
			value: f.id,
		}))
		.filter((r) => matches(r.name, filter));
	return { results };
}

/** The caller's projects (`GET /me/projects`, one page of 100 per scroll), searched by name on the service. */
export async function searchProjects(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = paginationToken ? Number(paginationToken) : 1;
	const limit = 100;
	const projects = (await requestItems.call(this, {
		method: 'GET',
		path: '/api/v1/me/projects',
		qs: filter ? { limit, page, search: filter } : { limit, page },
	})) as Named[];
	return {
		results: projects.map((p) => ({ name: p.name, value: p.id })),
		paginationToken: projects.length === limit ? String(page + 1) : undefined,
	};
}

/** Tasks of the selected project in document order (cursor paging), searched by text on the service. */
export async function searchTasks(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const projectId = currentId(this, 'projectId');
	if (!projectId) return { results: [] };
	const limit = 200;
	const qs: IDataObject = { limit };
	if (paginationToken) qs.after = paginationToken;
	if (filter) qs.search = filter;
	const tasks = (await requestItems.call(this, {
		method: 'GET',
		path: `/api/v1/projects/${seg(projectId)}/tasks`,
		qs,
	})) as Array<{ id: string; text: string; completed?: boolean }>;
	return {
		results: tasks.map((t) => ({ name: `${t.completed ? '✓ ' : ''}${t.text || '(empty)'}`, value: t.id })),
		paginationToken: tasks.length === limit ? tasks[tasks.length - 1].id : undefined,
	};
}

/** Agents of every folder the caller can see, searched by name on the service, shown as "Agent (Folder)". */
export async function searchAgents(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const folders = await allFolders(this);
	const results: INodeListSearchItems[] = [];
	for (const folder of folders) {
		const agents = (await getAllPages.call(this, `/api/v1/folders/${seg(folder.id)}/agents`, Infinity, filter ? { search: filter } : {})) as Named[];
		const where = folder.isHome ? folder.workspaceName : `${folder.workspaceName} / ${folder.name}`;
		for (const agent of agents) results.push({ name: `${agent.name} (${where})`, value: agent.id });
	}
	return { results };
}
