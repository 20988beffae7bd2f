import type { Route } from '../route/route.js';

/** Standard Schema v1.1's optional JSON Schema converter, when the library has one (zod 4.2+, ArkType). */
interface JsonSchemaProps {
  readonly vendor: string;
  readonly jsonSchema?: { readonly output?: (options: { target: string }) => unknown };
}

/**
 * Each parameter of a route with the type its controller receives, as `debug:router` lists them:
 * `id: integer, page: string`. A schema's type comes from its JSON Schema when the library can
 * say, else the library's name; a parameter without a schema is a string.
 */
export function parameterTypes(route: Route): string {
  return route.compiled.variables.map((name) => `${name}: ${typeOf(route, name)}`).join(', ');
}

function typeOf(route: Route, name: string): string {
  const schema = route.params[name];
  if (schema === undefined) return 'string';
  const props = schema['~standard'] as JsonSchemaProps;
  try {
    const json = props.jsonSchema?.output?.({ target: 'draft-2020-12' });
    const type = typeof json === 'object' && json !== null ? (json as { type?: unknown }).type : undefined;
    if (typeof type === 'string') return type;
  } catch {
    // A schema JSON Schema cannot express (a transform, say) is still listed, by its library.
  }
  return props.vendor;
}
