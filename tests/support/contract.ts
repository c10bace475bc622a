/**
 * Every answer the API tests receive is checked against the served OpenAPI document: its status
 * must be one the operation declares, and its JSON body must match that status's schema (Ajv,
 * JSON Schema 2020-12, formats checked). A drift between what the server answers and what the
 * document says fails the test that met it.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;
interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: Json }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json> };
}

export type ResponseCheck = (method: string, url: string, status: number, contentType: string | null, body: unknown) => string | null;

export function responseChecker(doc: Document): ResponseCheck {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ $id: 'nw://components', components: doc.components });
  const routes = Object.entries(doc.paths).map(([path, operations]) => ({
    pattern: new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`),
    specificity: path.split('{').length, // fewer parameters win: /scenes/x before /scenes/{idOrSlug}
    operations,
  }));
  routes.sort((a, b) => a.specificity - b.specificity);
  const compiled = new Map<Json, ValidateFunction>();
  const validatorFor = (schema: Json) => {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"nw://components#/components/')) as Json);
      compiled.set(schema, validate);
    }
    return validate;
  };

  return (method, url, status, contentType, body) => {
    const path = new URL(url, 'http://x').pathname;
    if (!path.startsWith('/api')) return null;
    const operation = routes.find((r) => r.pattern.test(path) && r.operations[method.toLowerCase()])?.operations[method.toLowerCase()];
    if (!operation) return null; // no such endpoint: the router's own 404/405, not an operation's answer
    const response = operation.responses[String(status)] ?? operation.responses[`${String(status)[0]}XX`];
    if (!response) return `${method} ${path} answered ${status}, which its operation does not declare (${Object.keys(operation.responses).join(', ')})`;
    const json = response.content?.['application/json'];
    if (!json?.schema || !contentType?.includes('application/json')) return null;
    const validate = validatorFor(json.schema);
    if (validate(body)) return null;
    return `${method} ${path} ${status}: the body does not match the document: ${ajv.errorsText(validate.errors, { separator: '; ' })}`;
  };
}
