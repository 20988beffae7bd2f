import { readFileSync } from 'node:fs';
import { findSourceMap, SourceMap, type SourceMapPayload } from 'node:module';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A place in a source file; `line` and `column` are 1-based. */
export interface SourcePosition {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** Parsed source maps by generated file; `null` = the file has none. Bounded: it only caches files. */
const maps = new Map<string, SourceMap | null>();
const MAX_CACHED_MAPS = 256;
/** Generated positions already mapped (`file:line:column` → source position), like the maps: never re-read. */
const positions = new Map<string, SourcePosition>();
const MAX_CACHED_POSITIONS = 4096;

const MAPPING_URL = /\/\/[#@] sourceMappingURL=([^\s'"]+)\s*$/;

/**
 * Maps a position in generated JavaScript (built `dist/*.js`) back to its TypeScript source.
 * Under tsx, vitest or `--enable-source-maps` stacks already point at `.ts` and nothing changes.
 * Otherwise the map Node registered (`module.findSourceMap`) is used, else the file's own
 * `sourceMappingURL` comment is followed. Any failure keeps the generated position.
 */
export function originalPosition(position: SourcePosition): SourcePosition {
  if (!/\.[cm]?js$/.test(position.file) || !isAbsolute(position.file)) return position;
  // Every debug-mode error goes through the same few dozen call sites: each is looked up once.
  const key = `${position.file}:${position.line}:${position.column}`;
  const known = positions.get(key);
  if (known !== undefined) return known;
  const mapped = mappedPosition(position);
  if (positions.size >= MAX_CACHED_POSITIONS) positions.delete(positions.keys().next().value as string);
  positions.set(key, mapped);
  return mapped;
}

function mappedPosition(position: SourcePosition): SourcePosition {
  const map = sourceMapOf(position.file);
  if (map === null) return position;
  try {
    const entry = map.findEntry(position.line - 1, position.column - 1) as Partial<{
      originalSource: string;
      originalLine: number;
      originalColumn: number;
    }>;
    if (entry.originalSource === undefined || entry.originalLine === undefined) return position;
    const source = entry.originalSource.startsWith('file://')
      ? fileURLToPath(entry.originalSource)
      : resolve(dirname(position.file), entry.originalSource);
    return { file: source, line: entry.originalLine + 1, column: (entry.originalColumn ?? 0) + 1 };
  } catch {
    return position;
  }
}

function sourceMapOf(file: string): SourceMap | null {
  const cached = maps.get(file);
  if (cached !== undefined) return cached;
  let map: SourceMap | null = null;
  try {
    map = findSourceMap(file) ?? loadSourceMap(file);
  } catch {
    map = null;
  }
  if (maps.size >= MAX_CACHED_MAPS) maps.delete(maps.keys().next().value as string);
  maps.set(file, map);
  return map;
}

function loadSourceMap(file: string): SourceMap | null {
  const code = readFileSync(file, 'utf8');
  const url = MAPPING_URL.exec(code.slice(-2048))?.[1];
  if (url === undefined) return null;
  let payload: string;
  if (url.startsWith('data:')) {
    const comma = url.indexOf(',');
    const data = url.slice(comma + 1);
    payload = url.slice(0, comma).endsWith(';base64') ? Buffer.from(data, 'base64').toString('utf8') : decodeURIComponent(data);
  } else {
    payload = readFileSync(resolve(dirname(file), url), 'utf8');
  }
  return new SourceMap(JSON.parse(payload) as SourceMapPayload);
}
