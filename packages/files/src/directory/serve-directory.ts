import { realpath } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { defineController, NotFoundHttpError, type Request } from '@switchboard/http-kernel';
import { contentDisposition } from '../response/content-disposition.js';
import { FileResponse, type FileResponseOptions } from '../response/file-response.js';
import { isActiveContentType } from './active-content.js';
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
  /**
   * `X-Content-Type-Options: nosniff` on every file, so a browser keeps to the `Content-Type` the
   * extension gave and never runs a `.txt` or `.png` it guessed to be HTML or a script. Default true.
   */
  readonly nosniff?: boolean;
  /**
   * How files a browser would run are served (HTML, XHTML, SVG, XML, JavaScript): `'inline'`
   * (default; a site's own pages and scripts) or `'attachment'` (`Content-Disposition: attachment`,
   * a download that never runs with the site's origin): for folders users can put files in.
   */
  readonly activeContent?: 'inline' | 'attachment';
}

/**
 * A controller serving the files under `root` from a route such as `GET /assets/*path`. Nothing
 * outside the root is ever read (see `fileInside`), directories are never listed, and every
 * refusal is the same 404 a missing file gets. Every file says `X-Content-Type-Options: nosniff`
 * (unless `nosniff: false`). Range and conditional requests are answered by `RangeListener`, as
 * for any file response.
 *
 * @example routes.add('assets', '/assets/*path', { methods: ['GET'], controller: serveDirectory('./public') });
 */
export function serveDirectory(root: string, options: ServeDirectoryOptions = {}) {
  const param = options.param ?? 'path';
  const nosniff = options.nosniff ?? true;
  const activeAsAttachment = options.activeContent === 'attachment';
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
      const response = await FileResponse.from(path, options.file);
      if (nosniff) response.headers.set('x-content-type-options', 'nosniff');
      if (activeAsAttachment && isActiveContentType(response.headers.get('content-type') ?? '')) {
        response.headers.set('content-disposition', contentDisposition('attachment', basename(path)));
      }
      return response;
    },
    'serveDirectory',
  );
}
