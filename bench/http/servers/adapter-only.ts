import { createListener } from '../apps/adapter-only.js';
import { listen } from '../listen.js';

listen(createListener());
