import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
  type ZodOpenApiSecuritySchemeObject,
} from 'zod-openapi';
import { z } from 'zod';
import { BODY_CONTENT_TYPES, type AnyRoute } from './route';

export interface OpenApiOptions {
  title: string;
  version: string;
  description?: string;
  /** Media types every response can take (JSON first). */
  responseMediaTypes?: string[];
  securitySchemes?: Record<string, ZodOpenApiSecuritySchemeObject>;
  /** Routes served outside the table (health, the document itself) to list as well. */
  extraRoutes?: AnyRoute[];
}

const openApiPath = (path: string) => path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

function operation(route: AnyRoute, mediaTypes: string[]): ZodOpenApiOperationObject {
  const { params, query, body, bodyTypes = ['json'] } = route.request ?? {};
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  for (const [status, response] of Object.entries(route.responses)) {
    responses[status] = {
      description: response.description,
      ...(response.schema && {
        content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: response.schema as z.ZodType }])),
      }),
    };
  }
  return {
    summary: route.summary,
    ...(route.description && { description: route.description }),
    ...(route.tags && { tags: route.tags }),
    ...(route.security && { security: route.security.map((name) => ({ [name]: [] })) }),
    requestParams: {
      ...(params && { path: params as z.ZodObject }),
      ...(query && { query: query as z.ZodObject }),
    },
    ...(body && {
      requestBody: {
        required: true,
        content: Object.fromEntries(bodyTypes.flatMap((t) => BODY_CONTENT_TYPES[t]).map((type) => [type, { schema: body }])),
      },
    }),
    responses,
  };
}

/** Documents the XML element an object is (OpenAPI `xml.name`); its fields are child elements, list fields repeated. */
export function xmlRoot<T extends z.ZodType>(schema: T, name: string): T {
  return schema.meta({ xml: { name } }) as T;
}

/** Documents an XML list: a `root` element holding one `item` element per entry. */
export function xmlList(item: z.ZodType, names: { root: string; item: string }) {
  return z.array(xmlRoot(item, names.item)).meta({ xml: { name: names.root, wrapped: true } });
}

/** The OpenAPI 3.1 description of a route table, generated from the same schemas that validate it. */
export function buildOpenApi(routes: AnyRoute[], options: OpenApiOptions) {
  const mediaTypes = options.responseMediaTypes ?? ['application/json'];
  const paths: ZodOpenApiPathsObject = {};
  for (const route of [...routes, ...(options.extraRoutes ?? [])]) {
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method]: operation(route, mediaTypes) };
  }
  return createDocument({
    openapi: '3.1.0',
    info: { title: options.title, version: options.version, ...(options.description && { description: options.description }) },
    paths,
    ...(options.securitySchemes && { components: { securitySchemes: options.securitySchemes } }),
  });
}
