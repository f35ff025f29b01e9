/** OpenAPI 3.0 schemas as JSON Schema (for ajv): `nullable` becomes a null alternative (in `type`, `enum`, or anyOf). */
export function jsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(jsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, any> = {};
  for (const [k, v] of Object.entries(node as Record<string, unknown>))
    out[k] =
      k === 'properties'
        ? Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([p, s]) => [p, jsonSchema(s)]))
        : jsonSchema(v);
  if (out.nullable !== true) return out;
  delete out.nullable;
  if (out.allOf || out.$ref) return { anyOf: [{ type: 'null' }, out] };
  const types = Array.isArray(out.type) ? out.type : [out.type];
  return { ...out, type: [...types, 'null'], ...(out.enum ? { enum: [...out.enum, null] } : {}) };
}
