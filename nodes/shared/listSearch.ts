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

/** Page size of the list searches that scroll (runs, conversations). */
const SCROLL_PAGE = 100;

/**
 * The caller's automations, shown as "Automation (Workspace)": those of the workspace picked in
 * the node (`workspaceId`), or of every workspace; filtered by name.
 */
export async function searchAutomations(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const picked = currentId(this, 'workspaceId');
	const workspaces = (await getWorkspaces.call(this)).filter((w) => !picked || w.value === picked);
	const results: INodeListSearchItems[] = [];
	for (const workspace of workspaces) {
		const automations = (await requestItems.call(this, {
			method: 'GET',
			path: '/api/v1/automations',
			qs: { workspaceId: String(workspace.value) },
		})) as Named[];
		for (const automation of automations) {
			const name = workspaces.length > 1 ? `${automation.name} (${workspace.name})` : automation.name;
			if (matches(name, filter)) results.push({ name, value: automation.id });
		}
	}
	return { results };
}

/** A run as a list entry: its status and when it was created (newest first). */
function runLabel(run: IDataObject): string {
	const when = String(run.createdAt ?? '').replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
	const automation = run.automationName ? `${String(run.automationName)} · ` : '';
	return `${automation}${String(run.status ?? '')} · ${when}`;
}

/**
 * Runs of the automation picked in the node (`automationId`), newest first, one page of 100 per
 * scroll (cursor `before`); the search filters the loaded page by status and time.
 */
export async function searchRuns(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const automationId = currentId(this, 'automationId');
	if (!automationId) return { results: [] };
	const qs: IDataObject = { limit: SCROLL_PAGE };
	if (paginationToken) qs.before = paginationToken;
	const runs = await requestItems.call(this, { method: 'GET', path: `/api/v1/automations/${seg(automationId)}/runs`, qs });
	return {
		results: runs.map((r) => ({ name: runLabel(r), value: String(r.id) })).filter((r) => matches(r.name, filter)),
		paginationToken: runs.length === SCROLL_PAGE ? String(runs[runs.length - 1].id) : undefined,
	};
}

/** Media of every folder the caller can see (newest first in each), shown as "File (Folder)", filtered by name. */
export async function searchMedia(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const folders = await allFolders(this);
	const results: INodeListSearchItems[] = [];
	for (const folder of folders) {
		const media = (await getAllPages.call(this, `/api/v1/folders/${seg(folder.id)}/medias`, Infinity)) as Named[];
		const where = folder.isHome ? folder.workspaceName : `${folder.workspaceName} / ${folder.name}`;
		for (const item of media) {
			const name = `${item.name} (${where})`;
			if (matches(name, filter)) results.push({ name, value: item.id });
		}
	}
	return { results };
}

/** Conversations of the agent picked in the node (`agentId`), newest first, one page of 100 per scroll; filtered by title. */
export async function searchConversations(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const agentId = currentId(this, 'agentId');
	if (!agentId) return { results: [] };
	const page = paginationToken ? Number(paginationToken) : 1;
	const convos = await requestItems.call(this, {
		method: 'GET',
		path: `/api/v1/agents/${seg(agentId)}/convos`,
		qs: { limit: SCROLL_PAGE, page },
	});
	return {
		results: convos
			.map((c) => ({ name: `${String(c.title || '(untitled)')} · ${String(c.createdAt ?? '').slice(0, 16).replace('T', ' ')}`, value: String(c.id) }))
			.filter((r) => matches(r.name, filter)),
		paginationToken: convos.length === SCROLL_PAGE ? String(page + 1) : undefined,
	};
}
