// The part of connect's API the middleware test uses (@types/connect is not installed).
declare module 'connect' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  type NextFunction = (error?: unknown) => void;
  type Handler = (req: IncomingMessage, res: ServerResponse, next: NextFunction) => void;
  interface Server {
    (req: IncomingMessage, res: ServerResponse): void;
    use(handler: Handler | ((req: IncomingMessage, res: ServerResponse) => void)): Server;
  }
  function connect(): Server;
  export default connect;
}
