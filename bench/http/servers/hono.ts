import { createListener } from '../apps/hono.js';
import { listen } from '../listen.js';

listen(createListener());
