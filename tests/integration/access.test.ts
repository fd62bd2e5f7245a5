import pino from 'pino';
import { GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { fileRoutes, pageRoutes, restRoutes } from '../../gateway/src/routes/index.js';
import { buildSchema, declaredAccess } from '../../server/src/schema/build-schema.js';
import { createServices } from '../../server/src/services.js';
import { loadConfig } from '../../server/src/config.js';
import { ACCESS_RULES } from '../../server/src/core/access.js';

const ACCESS: readonly string[] = ACCESS_RULES;

describe('every operation states who may call it', () => {
  const schema = buildSchema(null);

  it.each(['Query', 'Mutation'])('every %s field declares @Allow', (typeName) => {
    const type = schema.getType(typeName) as GraphQLObjectType;
    const missing = Object.keys(type.getFields()).filter((name) => !ACCESS.includes(declaredAccess(type, name) ?? ''));
    expect(missing).toEqual([]);
  });

  it('every REST route declares its access', () => {
    const services = createServices(loadConfig({}), 'secret', { log: pino({ level: 'silent' }) });
    const routes = [...restRoutes(services), ...fileRoutes(services), ...pageRoutes(services, { site: 'http://localhost', drawer: undefined as never, pages: undefined as never })];
    expect(routes.length).toBeGreaterThan(0);
    const missing = routes.filter((route) => !ACCESS.includes(route.access)).map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
  });
});
