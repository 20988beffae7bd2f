import { createListener } from '../apps/node-http-same-answer.js';
import { listen } from '../listen.js';

listen(createListener());
