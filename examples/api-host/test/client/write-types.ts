import { writeFileSync } from 'node:fs';
import { generateClientTypes, TYPES_FILE } from './generate-types.js';

// `pnpm openapi` runs this after writing openapi.json.
writeFileSync(TYPES_FILE, await generateClientTypes());
