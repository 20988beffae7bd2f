// `--debug` serves the debug-mode app (see apps/switchboard.ts).
import { createListener } from '../apps/switchboard.js';
import { listen } from '../listen.js';

listen(createListener({ debug: process.argv.includes('--debug') }));
