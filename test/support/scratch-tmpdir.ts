import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Vitest global setup: every test run writes its temporary files (keys, certificates, database
 * folders, screenshots…) under one folder of its own, through `TMPDIR`, which test workers and
 * the processes they start inherit; the folder is deleted when the run ends, whatever a test left.
 */
export default function scratchTmpdir(): () => void {
  const scratch = mkdtempSync(join(tmpdir(), 'switchboard-test-run-'));
  // Others may pass through (the PostgreSQL tests run initdb as the postgres user); the folders
  // the tests make inside are private again (mkdtemp gives 0700).
  chmodSync(scratch, 0o755);
  process.env['TMPDIR'] = scratch;
  return () => rmSync(scratch, { recursive: true, force: true });
}
