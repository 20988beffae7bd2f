/**
 * The parts of an OpenAPI 3.1 document this package writes. Schemas are JSON Schema 2020-12
 * objects, kept as plain records: they come from the schema libraries' own converters.
 */
export type JsonSchema = { readonly [keyword: string]: unknown };

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: OpenApiInfo;
  jsonSchemaDialect?: string;
  servers?: OpenApiServer[];
  paths: Record<string, PathItem>;
  components: OpenApiComponents;
  tags?: Array<{ name: string; description?: string }>;
}

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
  summary?: string;
}

export interface OpenApiServer {
  url: string;
  description?: string;
  variables?: Record<string, { default: string; enum?: string[]; description?: string }>;
}

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

export type PathItem = Partial<Record<HttpMethod, Operation>>;

export interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  servers?: OpenApiServer[];
  parameters?: Parameter[];
  requestBody?: RequestBody;
  responses: Record<string, ResponseObject | Reference>;
  security?: SecurityRequirement[];
  deprecated?: boolean;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  description?: string;
  schema: JsonSchema;
  style?: string;
  explode?: boolean;
}

export interface RequestBody {
  required: boolean;
  content: Record<string, MediaTypeObject>;
}

export interface MediaTypeObject {
  schema: JsonSchema;
}

export interface ResponseHeader {
  description?: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, ResponseHeader | Reference>;
  content?: Record<string, MediaTypeObject>;
}

export interface Reference {
  $ref: string;
}

/** Scheme names, each with its scopes; all of one requirement apply together, `{}` requires nothing. */
export type SecurityRequirement = Record<string, string[]>;

export interface SecurityScheme {
  type: 'http' | 'apiKey' | 'oauth2' | 'openIdConnect' | 'mutualTLS';
  scheme?: string;
  bearerFormat?: string;
  description?: string;
  name?: string;
  in?: 'query' | 'header' | 'cookie';
  /** `openIdConnect`: the provider's discovery document. */
  openIdConnectUrl?: string;
}

export interface OpenApiComponents {
  schemas: Record<string, JsonSchema>;
  responses: Record<string, ResponseObject>;
  headers: Record<string, ResponseHeader>;
  securitySchemes: Record<string, SecurityScheme>;
}
