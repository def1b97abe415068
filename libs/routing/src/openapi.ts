import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
  type ZodOpenApiSecuritySchemeObject,
} from 'zod-openapi';
import { z } from 'zod';
import { BODY_CONTENT_TYPES, resolveAuth, type AnyRoute, type RouteResponse } from './route';

export interface OpenApiOptions {
  title: string;
  version: string;
  description?: string;
  /** Media types every response can take (JSON first). */
  responseMediaTypes?: string[];
  securitySchemes?: Record<string, ZodOpenApiSecuritySchemeObject>;
  /** Routes served outside the table (health, the document itself) to list as well. */
  extraRoutes?: AnyRoute[];
  /** Where the API is reached; by default the server that serves the document (`/`). */
  servers?: Array<{ url: string; description?: string }>;
  /** The app's error body: describes the 405 every route answers to other methods. */
  errorSchema?: z.ZodType;
  /** The terms the API is offered under; by default the repository's (`UNLICENSED` in package.json: no licence granted). */
  license?: { name: string; url?: string; identifier?: string };
  /** A path prefix every route shares, left out of derived operationIds (`/dev/api`). */
  operationIdPrefix?: string;
}

const DEFAULT_SERVERS = [{ url: '/', description: 'The server that serves this document (directly, or by host name through the gateway or ingress)' }];

const openApiPath = (path: string) => path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

const words = (text: string) => text.split(/[^A-Za-z0-9]+/).filter(Boolean);
const capital = (word: string) => word[0].toUpperCase() + word.slice(1);

/** `get /contacts/:id/notes` → `getContactsByIdNotes`: unique per method and path, stable while the path is. */
export function derivedOperationId(method: string, path: string, prefix = ''): string {
  const rest = prefix && path.startsWith(prefix) ? path.slice(prefix.length) : path;
  const parts = rest.split('/').filter(Boolean).flatMap((segment) => (segment.startsWith(':') ? ['by', ...words(segment.slice(1))] : words(segment)));
  return method + parts.map(capital).join('');
}

/** The security requirement objects of a resolved route: [] for public routes. */
const securityOf = (route: AnyRoute) => (route.security ?? []).map((names) => Object.fromEntries((typeof names === 'string' ? [names] : names).map((name) => [name, []])));

function operation(route: AnyRoute, mediaTypes: string[], options: OpenApiOptions): ZodOpenApiOperationObject {
  const { params, query, body, bodyTypes = ['json'] } = route.request ?? {};
  const documented: Record<number, RouteResponse> = { ...route.responses };
  documented[405] ??= { description: 'Not an allowed method on this path; the Allow header lists those that are', schema: options.errorSchema };
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  for (const [status, { description, schema }] of Object.entries(documented)) {
    responses[status] = {
      description,
      ...(schema && { content: Object.fromEntries(mediaTypes.map((type) => [type, { schema }])) }),
    };
  }
  return {
    operationId: route.operationId ?? derivedOperationId(route.method, route.path, options.operationIdPrefix),
    summary: route.summary,
    ...(route.description && { description: route.description }),
    ...(route.tags && { tags: route.tags }),
    security: securityOf(route),
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

/** The XML element names a response schema declares (xmlRoot, xmlList); the one place the reply path reads them from. */
export interface XmlNames {
  root: string;
  /** The element of each entry, when the body is a list (or may be one: a union holding a list). */
  item?: string;
}

const xmlNameOf = (schema: z.ZodType): string | undefined => (schema.meta() as { xml?: { name?: string } } | undefined)?.xml?.name;

function listIn(schema: z.ZodType): z.ZodArray | undefined {
  if (schema instanceof z.ZodArray) return schema;
  if (schema instanceof z.ZodUnion) return (schema.options as z.ZodType[]).find((option): option is z.ZodArray => option instanceof z.ZodArray);
  return undefined;
}

/**
 * The names of a response schema's XML; undefined when it declares no root element. A union that
 * names no root itself but whose options each do (a list of contacts or a list of deals) takes the
 * names of the option `body` is.
 */
export function xmlNamesOf(schema: z.ZodType | undefined, body?: unknown): XmlNames | undefined {
  const root = schema && xmlNameOf(schema);
  if (!root) {
    if (!(schema instanceof z.ZodUnion) || body === undefined) return undefined;
    const option = (schema.options as z.ZodType[]).find((o) => xmlNameOf(o) !== undefined && o.safeParse(body).success);
    return option && xmlNamesOf(option);
  }
  const list = listIn(schema);
  const item = list && xmlNameOf(list.element as z.ZodType);
  return item ? { root, item } : { root };
}

/**
 * The OpenAPI 3.1 description of a route table, generated from the same schemas that validate it:
 * an operationId per operation, the security its auth gives (`[]` when public), schemas named with
 * `.meta({ id })` as shared components (`$ref`).
 */
export function buildOpenApi(routes: AnyRoute[], options: OpenApiOptions) {
  const mediaTypes = options.responseMediaTypes ?? ['application/json'];
  const paths: ZodOpenApiPathsObject = {};
  for (const route of resolveAuth([...routes, ...(options.extraRoutes ?? [])])) {
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method]: operation(route, mediaTypes, options) };
  }
  return createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: options.title,
        version: options.version,
        ...(options.description && { description: options.description }),
        license: options.license ?? { name: 'Proprietary (package.json: UNLICENSED)', identifier: 'LicenseRef-Proprietary' },
      },
      servers: options.servers ?? DEFAULT_SERVERS,
      paths,
      ...(options.securitySchemes && { components: { securitySchemes: options.securitySchemes } }),
    },
  );
}
