import { EventDispatcher, HttpKernel, Request, JsonResponse, defineController, DefaultCacheControlListener, nullLogger } from '@switchboard/http-kernel';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import { ErrorListener } from '@switchboard/error-controller';
const dispatcher = new EventDispatcher();
const routes = new RouteCollection().add('hello', '/hello', { methods: ['GET'], controller: defineController([], () => new JsonResponse({ hello: 'world' }), 'hello') });
dispatcher.addSubscriber(new RouterListener(new Router(routes), { debug: false }));
dispatcher.addSubscriber(new ErrorListener({ debug: false, logger: nullLogger }));
dispatcher.addSubscriber(new DefaultCacheControlListener());
const kernel = new HttpKernel({ dispatcher });
const headers = ['Host', '127.0.0.1:8080', 'Accept', 'application/json'];
function run(path, n) {
  for (let i = 0; i < n; i++) {
    const r = kernel.handleEagerly(new Request({ method: 'GET', scheme: 'http', host: '127.0.0.1', port: 8080, path, query: '', headers: undefined }));
    if (r instanceof Promise) throw new Error('async');
  }
}
for (const path of ['/hello', '/missing']) {
  run(path, 200000);
  const samples = [];
  for (let k = 0; k < 25; k++) { const t = process.hrtime.bigint(); run(path, 10000); samples.push(Number(process.hrtime.bigint() - t) / 10000); }
  samples.sort((a, b) => a - b);
  console.log(process.argv[2] ?? '', path, samples[0].toFixed(0), samples[6].toFixed(0), 'ns');
}
