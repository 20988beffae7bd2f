/** `host:port/database`: a Redis URL without its credentials, for messages. */
export function redisLocation(url: URL): string {
  return `${url.hostname}:${url.port || '6379'}${url.pathname.length > 1 ? url.pathname : ''}`;
}
