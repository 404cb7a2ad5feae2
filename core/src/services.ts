/** A service an extension (or the host) provides for others: resolved through the inversify container. */
export interface ServiceToken<T> {
  readonly id: string;
  /** 'host' or the providing extension's id; a consumer must list that extension in requires or optional. */
  readonly owner: string;
  readonly description: string;
  readonly symbol: symbol;
  readonly __service?: T;
}

export function defineService<T>(spec: { id: string; owner: string; description: string }): ServiceToken<T> {
  return Object.freeze({ ...spec, symbol: Symbol.for(`tessera.service.${spec.id}`) });
}

/**
 * A class the container makes (`ctx.provideClass(token, Class)` for a service others use, `ctx.resolve(Class)` for
 * one of the extension's own parts): its constructor takes what its static `inject` list names, in that order:
 * services (`ServiceToken`s), the extension's own context (`ExtensionContextToken`, or the side's typed alias) and
 * other classes of the extension (made once, in its child container). inversify's decorators are not used: Node
 * runs the studio's TypeScript by stripping types, and decorators are not erasable syntax, so a class names its
 * dependencies in a static list.
 */
export interface ServiceClass<T> {
  new (...deps: any[]): T;
  readonly inject?: readonly Injectable[];
}

/** What an `inject` list may name: a service, the extension's context, or another of the extension's classes. */
export type Injectable = ServiceToken<any> | ServiceClass<any>;

/**
 * The extension's own context, as a dependency of its classes: each extension's child container binds it to that
 * extension's context, so a class made there is given the context of the extension that made it.
 */
export const ExtensionContextToken = defineService<unknown>({
  id: 'extension-context',
  owner: 'host',
  description: "The resolving extension's own context (bound in each extension's child container).",
});

export function isServiceToken(x: Injectable): x is ServiceToken<any> {
  return typeof x === 'object' && x !== null && 'symbol' in x;
}
