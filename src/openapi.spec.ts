import { describe, expect, it } from '@jest/globals';
import type { OpenAPIObject } from '@nestjs/swagger';
import { STATUS_OF, type ErrorCode } from './common/http/api-error.js';
import { ERROR_DOCS, errorPageHtml, errorTableMarkdown } from './common/http/error-docs.js';
import { finishDocument } from './openapi.js';

const doc = (): OpenAPIObject =>
  ({
    openapi: '3.0.0',
    info: { title: 't', version: '1' },
    paths: {
      '/things/{id}': {
        get: {
          parameters: [
            { name: 'id', in: 'path', required: true, example: 'abc', schema: { type: 'string' } },
            { name: 'team', in: 'query', description: 'Team name.', schema: { type: 'string', example: 'celtics' } },
            { name: 'book', in: 'query', schema: { type: 'array', items: { type: 'string' } }, example: ['a', 'b'] },
            { name: 'limit', in: 'query', schema: { type: 'integer', default: 50 } },
          ],
          responses: {
            '200': {
              description: 'ok',
              content: { 'application/json': { schema: { type: 'object', properties: { data: { $ref: '#/components/schemas/Thing' } } } } },
            },
            '400': { description: 'bad', content: { 'application/json': { schema: { $ref: '#/components/schemas/Problem' } } } },
          },
        },
      },
    },
    components: {
      schemas: {
        Thing: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            parts: { type: 'array', items: { $ref: '#/components/schemas/Part' } },
            extras: { type: 'object', additionalProperties: { type: 'number' } },
          },
        },
        Part: { type: 'object', properties: { n: { type: 'number' } } },
        Open: { type: 'object', properties: { n: { type: 'number' } }, additionalProperties: true },
        Problem: { type: 'object', properties: { code: { type: 'string' } } },
      },
    },
  }) as unknown as OpenAPIObject;

describe('finishDocument', () => {
  it('moves every parameter example into its description, leaving defaults alone', () => {
    const params = finishDocument(doc()).paths['/things/{id}']!.get!.parameters as Array<Record<string, any>>;
    expect(params.map((p) => [p.name, p.description, p.example, p.schema.example])).toEqual([
      ['id', 'Example: `abc`', undefined, undefined],
      ['team', 'Team name. Example: `celtics`', undefined, undefined],
      ['book', 'Example: `a,b`', undefined, undefined],
      ['limit', undefined, undefined, undefined],
    ]);
    expect(params[3]!.schema.default).toBe(50);
  });

  it('closes the schemas a 2xx answer reaches, through references and items, and no others', () => {
    const s = finishDocument(doc()).components!.schemas as Record<string, Record<string, any>>;
    expect(s.Thing!.additionalProperties).toBe(false);
    expect(s.Part!.additionalProperties).toBe(false);
    // A map keeps its value schema; a schema that says it is open stays open; an error schema is not touched.
    expect(s.Thing!.properties.extras.additionalProperties).toEqual({ type: 'number' });
    expect(s.Open!.additionalProperties).toBe(true);
    expect(s.Problem!.additionalProperties).toBeUndefined();
  });
});

describe('error docs', () => {
  it('describe every error code once, in the table and on the page, each with its anchor', () => {
    const codes = Object.keys(STATUS_OF) as ErrorCode[];
    expect(Object.keys(ERROR_DOCS).sort()).toEqual([...codes].sort());
    const table = errorTableMarkdown();
    const html = errorPageHtml();
    for (const c of codes) {
      expect(table).toContain(`| ${STATUS_OF[c]} | ${c} |`);
      expect(html.match(new RegExp(`id="error-${c}"`, 'g'))).toHaveLength(1);
    }
  });
});
