import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A PGlite data folder of a test's own, and how to delete it. */
export interface PgliteDataFolder {
  readonly path: string;
  remove(): Promise<void>;
}

/** How long a test waits for another worker to finish the run's template: only a guard against a hang. */
const TEMPLATE_WAIT_MS = 100_000;
const POLL_MS = 50;

const templatePath = (): string => join(tmpdir(), 'pglite-template');
const lockPath = (): string => join(tmpdir(), 'pglite-template.lock');

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A fresh PGlite database in a folder of its own, for one test host or server. Creating a cluster
 * (initdb) costs PGlite several seconds of CPU, and the suite starts dozens of databases: the first
 * caller of a test run creates one empty cluster under the run's TMPDIR, and every database is a
 * copy of it, which opens in a fraction of that. The copy holds no table: the host still runs its
 * migrations on it, as on a first start. The first start into an empty folder, initdb included, is
 * what persistence.test.ts proves.
 */
export async function pgliteDataFolder(): Promise<PgliteDataFolder> {
  const template = await runTemplate();
  const path = await mkdtemp(join(tmpdir(), 'pglite-data-'));
  await cp(template, path, { recursive: true });
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** The run's template cluster; test files run in several processes at once, so one creates it and the others wait. */
async function runTemplate(): Promise<string> {
  const template = templatePath();
  const deadline = Date.now() + TEMPLATE_WAIT_MS;
  while (!existsSync(template)) {
    if (await claim()) {
      try {
        await createTemplate(template);
      } finally {
        await rm(lockPath(), { recursive: true, force: true });
      }
    } else {
      if (Date.now() > deadline) throw new Error(`No PGlite template in ${template} after ${TEMPLATE_WAIT_MS / 1000} s`);
      await pause(POLL_MS);
    }
  }
  return template;
}

/** `true` when this process got to create the template (an atomic mkdir). */
async function claim(): Promise<boolean> {
  try {
    await mkdir(lockPath());
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** initdb through PGlite itself, in a folder of its own, moved into place once closed: a template is whole or absent. */
async function createTemplate(template: string): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite');
  const building = await mkdtemp(join(tmpdir(), 'pglite-template-building-'));
  try {
    const db = await PGlite.create(building);
    await db.close();
    await rename(building, template);
  } catch (error) {
    await rm(building, { recursive: true, force: true });
    throw error;
  }
}
