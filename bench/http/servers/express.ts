import { createListener } from '../apps/express.js';
import { listen } from '../listen.js';

listen(createListener());
