import type { Request } from '../http/request.js';
import type { Controller } from './controller.js';

/**
 * Finds the controller of a request from its `_controller` attribute: a function is used as is,
 * a string is looked up among the registered controllers. `null` when there is none.
 */
export class ControllerResolver {
  readonly #named: ReadonlyMap<string, Controller>;

  constructor(named: Iterable<readonly [string, Controller]> | Readonly<Record<string, Controller>> = []) {
    this.#named = new Map(Symbol.iterator in named ? (named as Iterable<[string, Controller]>) : Object.entries(named));
  }

  /** The registered controller called `name`, if there is one (read before serving, to check its arguments). */
  named(name: string): Controller | undefined {
    return this.#named.get(name);
  }

  getController(request: Request): Controller | null {
    const controller = request.attributes.get('_controller');
    if (controller === undefined) return null;
    if (typeof controller === 'function') return controller;
    const named = this.#named.get(controller);
    if (named === undefined) {
      throw new Error(`The controller "${controller}" for path "${request.rawPath}" is not registered.`);
    }
    return named;
  }
}
