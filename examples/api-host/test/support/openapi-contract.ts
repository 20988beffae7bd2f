import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OpenApiDocument, Reference, ResponseHeader, ResponseObject } from '@switchboard/openapi';

/** An answer as a test received it. */
export interface ReceivedAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json$/;

/**
 * Checks answers against an OpenAPI document, as a client generated from it would expect them:
 * the status is documented for the operation, the required headers are there, the media type is
 * one the response lists, and a JSON body is valid against its schema (ajv, JSON Schema 2020-12,
 * formats checked). Returns the problems found, none when the answer fits.
 */
export class OpenApiContract {
  readonly #ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  readonly #validators = new Map<string, ValidateFunction>();
  readonly #templates: ReadonlyArray<{ template: string; regex: RegExp }>;

  constructor(private readonly document: OpenApiDocument) {
    addFormats.default(this.#ajv);
    this.#ajv.addSchema(document as unknown as object, 'openapi.json');
    // Static segments win over parameters, as a router matches them.
    this.#templates = Object.keys(document.paths)
      .map((template) => ({ template, regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`) }))
      .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
  }

  check(method: string, path: string, answer: ReceivedAnswer): string[] {
    const where = `${method} ${path} → ${answer.status}`;
    const template = this.#templates.find(({ regex }) => regex.test(path.split('?')[0]!))?.template;
    if (template === undefined) return [`${where}: no path of the document matches`];
    const item = this.document.paths[template]!;
    // A 405 answers a method the path has no operation for: any operation of the path documents it.
    const operation = item[method.toLowerCase() as 'get'] ?? (answer.status === 405 ? Object.values(item)[0] : undefined);
    if (operation === undefined) return [`${where}: ${template} has no ${method} operation`];
    const code = String(answer.status);
    const key = [code, `${code[0]}XX`, 'default'].find((candidate) => candidate in operation.responses);
    if (key === undefined) return [`${where}: status not documented for ${operation.operationId}`];
    const { response, pointer } = this.#resolveResponse(
      operation.responses[key]!,
      `/paths/${pointerToken(template)}/${method.toLowerCase()}/responses/${key}`,
    );
    const problems: string[] = [];
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      if (this.#resolveHeader(header).required === true && !answer.headers.has(name)) problems.push(`${where}: header ${name} missing`);
    }
    if (answer.body === '' && response.content === undefined) return problems;
    const mediaType = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (response.content?.[mediaType] === undefined) {
      return [
        ...problems,
        `${where}: media type "${mediaType}" not documented (${Object.keys(response.content ?? {}).join(', ') || 'no body'})`,
      ];
    }
    if (!JSON_MEDIA_TYPE.test(mediaType)) return problems;
    const validate = this.#validator(`${pointer}/content/${pointerToken(mediaType)}/schema`);
    if (!validate(JSON.parse(answer.body)))
      problems.push(`${where}: body ${answer.body.slice(0, 300)} — ${this.#ajv.errorsText(validate.errors)}`);
    return problems;
  }

  #resolveResponse(response: ResponseObject | Reference, pointer: string): { response: ResponseObject; pointer: string } {
    if (!('$ref' in response)) return { response, pointer };
    const name = response.$ref.replace('#/components/responses/', '');
    return { response: this.document.components.responses[name]!, pointer: `/components/responses/${pointerToken(name)}` };
  }

  #resolveHeader(header: ResponseHeader | Reference): ResponseHeader {
    return '$ref' in header ? this.document.components.headers[header.$ref.replace('#/components/headers/', '')]! : header;
  }

  #validator(pointer: string): ValidateFunction {
    let validate = this.#validators.get(pointer);
    if (validate === undefined) {
      validate = this.#ajv.compile({ $ref: `openapi.json#${pointer}` });
      this.#validators.set(pointer, validate);
    }
    return validate;
  }
}

/** A JSON Pointer token (RFC 6901), as it goes in a URI fragment. */
function pointerToken(token: string): string {
  return encodeURIComponent(token.replaceAll('~', '~0').replaceAll('/', '~1'));
}
