import { createListener } from '../apps/node-http.js';
import { listen } from '../listen.js';

listen(createListener());
