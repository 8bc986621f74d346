import { Type } from '@sinclair/typebox';

/** OAuth 2.0 Protected Resource Metadata of `/mcp` (RFC 9728 section 2). */
export const ProtectedResourceMetadata = Type.Object(
  {
    resource: Type.String(),
    authorization_servers: Type.Array(Type.String()),
    scopes_supported: Type.Array(Type.String()),
    bearer_methods_supported: Type.Array(Type.String()),
    resource_name: Type.String(),
    resource_documentation: Type.String(),
  },
  { additionalProperties: false },
);
