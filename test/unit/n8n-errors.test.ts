import type { INode } from 'n8n-workflow';
import { serviceApiError } from '../../nodes/shared/errors';

const node = {
  id: 'n',
  name: 'Taskspace',
  type: 'n8n-nodes-taskspace.taskspaceTask',
  typeVersion: 1,
  position: [0, 0],
  parameters: {},
} as INode;
const limited = {
  ok: false,
  code: 'RATE_LIMITED',
  message: 'rate limit of 1000 requests per hour exceeded',
  error: { code: 'RATE_LIMITED', message: 'rate limit of 1000 requests per hour exceeded' },
};

/** The n8n error of a failed service call: what an n8n user reads in the node's error panel. */
describe('serviceApiError', () => {
  test('a 429 names the Retry-After wait in the description', () => {
    const error = serviceApiError(node, 429, limited, 0, '42');
    expect(error.httpCode).toBe('429');
    expect(error.message).toBe('rate limit of 1000 requests per hour exceeded');
    expect(error.description).toBe('Taskspace error RATE_LIMITED (HTTP 429); retry after 42 seconds (Retry-After)');
    expect(serviceApiError(node, 429, limited, 0, 'Wed, 25 Nov 2026 10:00:00 GMT').description).toContain(
      'retry after Wed, 25 Nov 2026 10:00:00 GMT (Retry-After)',
    );
  });

  test('without Retry-After, or on other statuses, nothing about waiting is said', () => {
    expect(serviceApiError(node, 429, limited).description).toBe('Taskspace error RATE_LIMITED (HTTP 429)');
    expect(serviceApiError(node, 503, { error: { code: 'UNAVAILABLE', message: 'x' } }, 0, '5').description).toBe(
      'Taskspace error UNAVAILABLE (HTTP 503)',
    );
  });
});
