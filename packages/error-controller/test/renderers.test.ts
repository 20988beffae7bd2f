import { describe, expect, it } from 'vitest';
import { HttpError, MethodNotAllowedHttpError, NotFoundHttpError, Request } from '@switchboard/http-kernel';
import { flattenError, HtmlErrorRenderer, ProblemJsonErrorRenderer, TextErrorRenderer } from '../src/index.js';

const request = Request.fromUrl('http://localhost/robots.txt', {
  headers: { referer: 'http://localhost/', authorization: 'Bearer secret-token-value', cookie: 'sid=secret-cookie' },
});

function chained(): HttpError {
  const root = new Error('socket hang up');
  const middle = new Error('upstream call failed', { cause: root });
  return new HttpError(502, 'Bad gateway to billing', { cause: middle });
}

describe('HtmlErrorRenderer', () => {
  it('outside debug mode shows the status only: no message, class, file or frame', () => {
    const error = flattenError(new NotFoundHttpError('No route found for "GET http://localhost/robots.txt"'));
    const { body, contentType } = new HtmlErrorRenderer({ debug: false }).render(error, request);
    expect(contentType).toBe('text/html; charset=UTF-8');
    expect(body).toContain('<title>404 Not Found</title>');
    expect(body).toContain('<meta name="robots" content="noindex,nofollow">');
    expect(body).not.toContain('No route found');
    expect(body).not.toContain('NotFoundHttpError');
    expect(body).not.toContain('.ts');
    expect(body.length).toBeLessThan(4000);
  });

  it('in debug mode shows title, message, cause chain, frames with code, and the request with credentials redacted', () => {
    const error = flattenError(chained(), { sourceLines: 3 });
    const { body } = new HtmlErrorRenderer({ debug: true }).render(error, request);
    expect(body).toContain('<title>Bad gateway to billing (502 Bad Gateway)</title>');
    expect(body).toContain('Stack trace, then 2 causes');
    const messages = [...body.matchAll(/<p class="message">(.*?)<\/p>/g)].map((m) => m[1]);
    expect(messages).toEqual(['Bad gateway to billing', 'upstream call failed', 'socket hang up']);
    expect(body.match(/<details/g)!.length).toBe(error.frames.length + error.cause!.frames.length + error.cause!.cause!.frames.length);
    expect(body).toContain('<details open>');
    expect(body).toContain('const root = new Error(&#x27;socket hang up&#x27;);');
    expect(body).toMatch(/<span class="hit"><i>\d+<\/i>/);
    expect(body).toContain('http://localhost/robots.txt');
    expect(body).not.toContain('secret-token-value');
    expect(body).not.toContain('secret-cookie');
    expect(body).toContain('(redacted)');
    // Self-contained: no script, no external resource.
    expect(body).not.toMatch(/<script|<link|src=|@import|url\(/i);
  });
});

describe('ProblemJsonErrorRenderer', () => {
  it('writes an RFC 9457 document; class and trace in debug mode only', () => {
    const error = flattenError(new MethodNotAllowedHttpError(['GET'], 'Method Not Allowed (Allow: GET)'));
    const plain = JSON.parse(new ProblemJsonErrorRenderer({ debug: false }).render(error).body) as Record<string, unknown>;
    expect(plain).toEqual({ type: 'about:blank', title: 'Method Not Allowed', status: 405, detail: 'Method Not Allowed (Allow: GET)' });
    const debug = JSON.parse(new ProblemJsonErrorRenderer({ debug: true }).render(flattenError(chained())).body) as Record<string, unknown>;
    expect(debug).toMatchObject({ status: 502, detail: 'Bad gateway to billing', class: 'HttpError' });
    expect((debug['trace'] as Array<Record<string, unknown>>)[0]).toMatchObject({ function: 'chained', line: expect.any(Number) });
    expect((debug['causes'] as Array<{ message: string }>).map((c) => c.message)).toEqual(['upstream call failed', 'socket hang up']);
  });

  it('writes the errors of one status alike only when they carry no details', () => {
    const renderer = new ProblemJsonErrorRenderer({ debug: false, exposeClientErrorMessages: false });
    const render = (error: HttpError) => JSON.parse(renderer.render(flattenError(error)).body) as Record<string, unknown>;
    const plain = { type: 'about:blank', title: 'Unprocessable Content', status: 422, detail: 'Unprocessable Content' };
    expect(render(new HttpError(422, 'first'))).toEqual(plain);
    expect(render(new HttpError(422, 'second', { details: { violations: ['name'] } }))).toEqual({ ...plain, violations: ['name'] });
    expect(render(new HttpError(422, 'third'))).toEqual(plain);
    // The same status with another reason phrase (a flattened error built by hand) is written as it says.
    const renamed = { ...flattenError(new HttpError(422, 'fourth')), statusText: 'Invalid' };
    expect(JSON.parse(renderer.render(renamed).body)).toMatchObject({ title: 'Invalid', detail: 'Invalid' });
    expect(render(new NotFoundHttpError('missing'))).toMatchObject({ status: 404, title: 'Not Found' });
  });

  it('survives details that JSON cannot encode as is', () => {
    const cyclic: Record<string, unknown> = { n: 10n };
    cyclic['self'] = cyclic;
    const error = flattenError(new HttpError(400, 'bad', { details: { cyclic } }));
    const problem = JSON.parse(new ProblemJsonErrorRenderer({ debug: false }).render(error).body) as Record<string, unknown>;
    expect(problem['cyclic']).toEqual({ n: '10', self: '[circular]' });
    const loop: Record<string, unknown> = { name: 'loop' };
    loop['next'] = loop;
    const looped = JSON.parse(
      new ProblemJsonErrorRenderer({ debug: false }).render(flattenError(new HttpError(400, 'bad', { details: { loop } }))).body,
    );
    expect(looped.loop).toEqual({ name: 'loop', next: '[circular]' });
  });

  it('in debug mode writes class, trace and causes after the details, also beside details plain JSON refuses', () => {
    const renderer = new ProblemJsonErrorRenderer({ debug: true });
    const error = new HttpError(502, 'Bad gateway to billing', { cause: chained(), details: { attempts: 2n, upstream: 'billing' } });
    const body = renderer.render(flattenError(error)).body;
    const problem = JSON.parse(body) as Record<string, unknown>;
    expect(Object.keys(problem)).toEqual(['type', 'title', 'status', 'detail', 'attempts', 'upstream', 'class', 'trace', 'causes']);
    expect(problem).toMatchObject({ attempts: '2', class: 'HttpError' });
    expect((problem['causes'] as Array<{ class: string; message: string }>).map((cause) => cause.message)).toEqual([
      'Bad gateway to billing',
      'upstream call failed',
      'socket hang up',
    ]);
    const flattened = flattenError(error);
    const expectedTrace = flattened.frames.map(({ function: fn, file, line, column }) => ({ function: fn, file, line, column }));
    expect(problem['trace']).toEqual(expectedTrace);
    // The same error written again: the same document.
    expect(renderer.render(flattenError(error)).body).toBe(body);
  });

  it('writes an object that details share in two places twice (only cycles are cut)', () => {
    const shared = { id: 7 };
    const error = flattenError(new HttpError(422, 'bad', { details: { first: shared, second: shared } }));
    const problem = JSON.parse(new ProblemJsonErrorRenderer({ debug: false }).render(error).body) as Record<string, unknown>;
    expect([problem['first'], problem['second']]).toEqual([{ id: 7 }, { id: 7 }]);
  });
});

describe('TextErrorRenderer', () => {
  it('prints the status line, and the stack with causes in debug mode', () => {
    const error = flattenError(chained());
    expect(new TextErrorRenderer({ debug: false }).render(error)).toEqual({
      body: '502 Bad Gateway\n',
      contentType: 'text/plain; charset=UTF-8',
    });
    const debug = new TextErrorRenderer({ debug: true }).render(error).body;
    expect(debug).toMatch(/^502 Bad Gateway\n\nHttpError: Bad gateway to billing\n {4}at chained \(.*renderers\.test\.ts:\d+:\d+\)\n/);
    expect(debug).toContain('Caused by: Error: upstream call failed\n');
    expect(debug).toContain('Caused by: Error: socket hang up\n');
  });
});
