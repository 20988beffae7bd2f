import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from 'koa-tree-router';
import { announce, HELLO_BODY, HELLO_PATH, NOT_FOUND_BODY } from '../contract.js';

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
const server = app.listen(0, '127.0.0.1', () => announce((server.address() as AddressInfo).port));
