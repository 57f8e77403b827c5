import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { readYaml } from './yaml-cache';

/** A copy of the document where every reference into an `x-` extension is replaced by the schema it points to. */
function inlineExtensionRefs(doc: unknown): OpenAPI3 {
  const at = (ref: string) =>
    ref
      .slice(2)
      .split('/')
      .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  const copy = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(copy);
    if (!node || typeof node !== 'object') return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && /^#\/.*\/x-/.test(ref)) return copy(at(ref));
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, copy(v)]));
  };
  return copy(doc) as OpenAPI3;
}

/**
 * The TypeScript types of an API document, as `npm run types` writes them beside the API's checks. Objects keep the
 * extra properties JSON Schema allows them, and an object schema without properties is any object: a body is typed
 * as the document states it, no narrower. References into extensions (`x-by-object-type`), which the generator would
 * turn into a type referring to itself, are inlined first.
 */
export async function generateTypes(specFile: string): Promise<string> {
  const ast = await openapiTS(inlineExtensionRefs(readYaml(specFile)), {
    additionalProperties: true,
    emptyObjectsUnknown: true,
    exportType: true,
    silent: true,
  });
  return `${COMMENT_HEADER}${astToString(ast)}`;
}
