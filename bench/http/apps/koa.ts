import type { RequestListener } from 'node:http';
import Koa from 'koa';
import Router from 'koa-tree-router';
import { HELLO_BODY, HELLO_PATH, NOT_FOUND_BODY } from '../contract.js';

export function createListener(): RequestListener {
  const app = new Koa();
  const router = new Router();
  router.get(HELLO_PATH, (ctx) => {
    ctx.body = HELLO_BODY;
  });
  app.use(router.routes());
  app.use((ctx) => {
    ctx.status = 404;
    ctx.type = 'application/problem+json';
    ctx.body = JSON.stringify(NOT_FOUND_BODY);
  });
  return app.callback() as RequestListener;
}
