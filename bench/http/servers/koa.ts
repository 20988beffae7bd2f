import { createListener } from '../apps/koa.js';
import { listen } from '../listen.js';

listen(createListener());
