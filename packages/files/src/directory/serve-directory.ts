import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { defineController, NotFoundHttpError, type Request } from '@switchboard/http-kernel';
import { FileResponse, type FileResponseOptions } from '../response/file-response.js';
import { fileInside, type DirectoryPolicy } from './safe-path.js';

export interface ServeDirectoryOptions {
  /** The route attribute holding the path inside the root, from a `*path` wildcard. Default `path`. */
  readonly param?: string;
  /** Serve names starting with `.` (`.env`, `.git/`). Default false. */
  readonly dotfiles?: boolean;
  /** The file a directory request gets; `false` answers directories 404. Default `index.html`. */
  readonly index?: string | false;
  /** Passed to every `FileResponse` (headers such as `Cache-Control`, a disposition). */
  readonly file?: Pick<FileResponseOptions, 'disposition' | 'headers' | 'validators'>;
}

/**
 * A controller serving the files under `root` from a route such as `GET /assets/*path`. Nothing
 * outside the root is ever read (see `fileInside`), directories are never listed, and every
 * refusal is the same 404 a missing file gets. Range and conditional requests are answered by
 * `RangeListener`, as for any file response.
 *
 * @example routes.add('assets', '/assets/*path', { methods: ['GET'], controller: serveDirectory('./public') });
 */
export function serveDirectory(root: string, options: ServeDirectoryOptions = {}) {
  const param = options.param ?? 'path';
  let policy: Promise<DirectoryPolicy> | undefined;
  const policyOf = (): Promise<DirectoryPolicy> => {
    policy ??= realpath(resolve(root)).then((real) => ({
      root: real,
      dotfiles: options.dotfiles ?? false,
      index: options.index ?? 'index.html',
    }));
    return policy;
  };
  return defineController(
    ['request'],
    async (request: Request): Promise<FileResponse> => {
      const requested = request.attributes.get(param);
      const path = typeof requested === 'string' ? await fileInside(await policyOf(), requested, request.rawPath) : null;
      if (path === null) throw new NotFoundHttpError(`No file at "${request.path}".`);
      return FileResponse.from(path, options.file);
    },
    'serveDirectory',
  );
}
