import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { isoTime } from '../../platform/clock';
import { testConnection } from './connection-test';
import { createConnection, deleteConnection, getConnection, listConnections, updateConnection, type ConnectionInfo } from './service';
import {
  ConnectionParams,
  CreateConnectionBody,
  ListConnectionsQuery,
  UpdateConnectionBody,
  WorkspaceParams,
  connectionResponses,
  connectionTestResponses,
  connectionsResponses,
  deleteConnectionResponses,
} from './schemas';

/** Connections are managed with first-party credentials only, like secrets. */
const FIRST_PARTY = { firstParty: true } as const;
const tags = ['connections'];

function present(c: ConnectionInfo) {
  return { ...c, createdAt: isoTime(c.createdAt), updatedAt: isoTime(c.updatedAt) };
}

/**
 * Connections of pieces over the API (docs/integrations.md "Connections"): list and read (any
 * member; never a value), make, change, delete and test (Collaborators and Owners).
 */
export const connectionRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const pieces = () => app.automations.pieces;
  app.get(
    '/workspaces/:workspaceId/connections',
    {
      config: FIRST_PARTY,
      schema: {
        tags,
        summary: "The workspace's connections (never a value)",
        params: WorkspaceParams,
        querystring: ListConnectionsQuery,
        response: connectionsResponses,
      },
    },
    async (request) => ({
      ok: true,
      items: (
        await app.services.store.run(listConnections(app.services, request.actor, request.params.workspaceId, request.query.piece))
      ).map(present),
    }),
  );
  app.post(
    '/workspaces/:workspaceId/connections',
    {
      config: FIRST_PARTY,
      schema: {
        tags,
        summary: 'Collaborators: make a connection to a piece; its value is never shown again',
        params: WorkspaceParams,
        body: CreateConnectionBody,
        response: connectionResponses,
      },
    },
    async (request) => {
      const { body } = request;
      const item = await app.services.store.run(
        createConnection(app.services, request.actor, request.params.workspaceId, body, pieces().catalogue.find(body.piece)),
      );
      return { ok: true, item: present(item) };
    },
  );
  app.get(
    '/workspaces/:workspaceId/connections/:id',
    {
      config: FIRST_PARTY,
      schema: { tags, summary: 'One connection (never its value)', params: ConnectionParams, response: connectionResponses },
    },
    async (request) => ({
      ok: true,
      item: present(
        await app.services.store.run(getConnection(app.services, request.actor, request.params.workspaceId, request.params.id)),
      ),
    }),
  );
  app.patch(
    '/workspaces/:workspaceId/connections/:id',
    {
      config: FIRST_PARTY,
      schema: {
        tags,
        summary: 'Collaborators: rename a connection or replace its value',
        params: ConnectionParams,
        body: UpdateConnectionBody,
        response: connectionResponses,
      },
    },
    async (request) => {
      const item = await app.services.store.run(
        updateConnection(app.services, request.actor, request.params.workspaceId, request.params.id, request.body, (name) =>
          pieces().catalogue.find(name),
        ),
      );
      return { ok: true, item: present(item) };
    },
  );
  app.delete(
    '/workspaces/:workspaceId/connections/:id',
    {
      config: FIRST_PARTY,
      schema: { tags, summary: 'Collaborators: delete a connection', params: ConnectionParams, response: deleteConnectionResponses },
    },
    async (request) => {
      await app.services.store.run(deleteConnection(app.services, request.actor, request.params.workspaceId, request.params.id));
      return { ok: true };
    },
  );
  app.post(
    '/workspaces/:workspaceId/connections/:id/test',
    {
      config: FIRST_PARTY,
      schema: {
        tags,
        summary: "Collaborators: check a connection with the piece's own check (auth.validate)",
        params: ConnectionParams,
        response: connectionTestResponses,
      },
    },
    async (request) => ({
      ok: true,
      item: await testConnection(app.services, pieces(), request.actor, request.params.workspaceId, request.params.id),
    }),
  );
};
