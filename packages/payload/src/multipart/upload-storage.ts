import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { uploadFolderPrefix } from './abandoned-uploads.js';

/**
 * The temporary files of one request's uploads, in a folder of their own created on the first
 * file that needs one (`mkdtemp`: mode 0700; files 0600), removed whole by `removeAll`. The folder's
 * name holds this process's id, so that `removeAbandonedUploads` knows when its owner is gone.
 */
export class UploadStorage {
  readonly #parent: string;
  #folder: Promise<string> | undefined;
  #count = 0;
  #removed = false;

  constructor(parent: string) {
    this.#parent = parent;
  }

  /** A new private file, open for writing. */
  async create(): Promise<{ readonly path: string; readonly handle: FileHandle }> {
    if (this.#removed) throw new Error('The uploads of this request were already removed.');
    this.#folder ??= mkdtemp(join(this.#parent, uploadFolderPrefix()));
    const path = join(await this.#folder, `${++this.#count}.part`);
    return { path, handle: await open(path, 'wx', 0o600) };
  }

  /** Deletes every file (idempotent); files created later are refused. */
  async removeAll(): Promise<void> {
    this.#removed = true;
    const folder = this.#folder;
    if (folder === undefined) return;
    this.#folder = undefined;
    await rm(await folder, { recursive: true, force: true });
  }
}
