/**
 * The OpenAPI document as outside tools read it: Redocly's linter with its recommended rules
 * finds no error and no warning, with a token (its bearer scheme declared) and without.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { startService } from '../../src/server/index.ts';

for (const token of [undefined, 'openapi-lint-token-0123456789']) {
  test(`/openapi.json passes Redocly's recommended rules ${token ? 'with' : 'without'} a token`, async () => {
    const service = await startService({ port: 0, ...(token ? { access: { token } } : {}) });
    try {
      const document = await (await fetch(`${service.url}/openapi.json`)).text();
      const config = await createConfig({ extends: ['recommended'] });
      const problems = await lintFromString({
        source: document,
        absoluteRef: 'openapi.json',
        config,
      });
      const found = problems.map(
        (p) => `${p.severity} ${p.ruleId}: ${p.message} (${p.location[0]?.pointer})`,
      );
      assert.deepEqual(found, []);
      const parsed = JSON.parse(document) as {
        servers?: unknown[];
        security?: unknown[];
        components?: { securitySchemes?: Record<string, { type: string; scheme: string }> };
      };
      assert.ok(parsed.servers && parsed.servers.length > 0, 'servers declared');
      if (token) {
        assert.deepEqual(parsed.components?.securitySchemes?.['bearer'], {
          ...parsed.components?.securitySchemes?.['bearer'],
          type: 'http',
          scheme: 'bearer',
        });
        assert.deepEqual(parsed.security, [{ bearer: [] }]);
      } else {
        assert.deepEqual(parsed.security, [], 'no token: no operation asks for credentials');
      }
    } finally {
      await service.close();
    }
  });
}
