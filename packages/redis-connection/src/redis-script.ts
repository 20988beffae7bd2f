import { createHash } from 'node:crypto';

/** A Lua script sent by its SHA1 (`EVALSHA`); whole only when Redis does not know it yet. */
export class RedisScript {
  readonly sha: string;

  constructor(readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }
}
