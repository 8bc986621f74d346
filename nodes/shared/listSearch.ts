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

/** The caller's projects (`GET /me/projects`, one page of 100 per scroll), filtered by name. */
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
		qs: { limit, page },
	})) as Named[];
	return {
		results: projects.filter((p) => matches(p.name, filter)).map((p) => ({ name: p.name, value: p.id })),
		paginationToken: projects.length === limit ? String(page + 1) : undefined,
	};
}

/** Tasks of the selected project in document order (cursor paging), filtered by text. */
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
	const tasks = (await requestItems.call(this, {
		method: 'GET',
		path: `/api/v1/projects/${seg(projectId)}/tasks`,
		qs,
	})) as Array<{ id: string; text: string; completed?: boolean }>;
	return {
		results: tasks
			.filter((t) => matches(t.text, filter))
			.map((t) => ({ name: `${t.completed ? '✓ ' : ''}${t.text || '(empty)'}`, value: t.id })),
		paginationToken: tasks.length === limit ? tasks[tasks.length - 1].id : undefined,
	};
}

/** Agents of every folder the caller can see, shown as "Agent (Folder)". */
export async function searchAgents(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const folders = await allFolders(this);
	const results: INodeListSearchItems[] = [];
	for (const folder of folders) {
		const agents = (await getAllPages.call(this, `/api/v1/folders/${seg(folder.id)}/agents`, Infinity)) as Named[];
		const where = folder.isHome ? folder.workspaceName : `${folder.workspaceName} / ${folder.name}`;
		for (const agent of agents) {
			const name = `${agent.name} (${where})`;
			if (matches(name, filter)) results.push({ name, value: agent.id });
		}
	}
	return { results };
}
