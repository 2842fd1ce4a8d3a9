import 'reflect-metadata';
import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import { SettingsError } from '../config/load.js';
import type { Plugin, PluginContext } from '../plugin.js';
import { tokenName, type ServiceToken } from '../services.js';
import { dependsOn } from './loader.js';

/** How a plugin's code reaches services: the kernel's, its own, and those of the plugins it depends on. */
export interface ServiceResolver {
  get<T>(token: ServiceToken<T>): T;
}

/** A service a plugin provides to others, built on first use from the plugin's context. */
export interface Provision<T = unknown, C = Record<string, unknown>> {
  token: ServiceToken<T>;
  use(ctx: PluginContext<C>): T;
}

/** Declares that a plugin provides `token` (in its definition's `provides`). */
export function provide<T, C = Record<string, unknown>>(token: ServiceToken<T>, use: (ctx: PluginContext<C>) => T): Provision<T, C> {
  return { token, use };
}

/** A kernel service's provider: built on first use from the other services. */
export type ServiceFactory<T> = (services: ServiceResolver) => T;

/**
 * The server's services in its tsyringe container, each built once on first use: the kernel's by their factories,
 * the plugins' by their provisions. A plugin resolves only the kernel's, its own and its dependencies' (start-up
 * stops otherwise, naming both), so the dependency list says what a plugin really uses.
 */
export class ServiceRegistry {
  /** The plugin providing each service; absent for the kernel's. */
  private readonly owners = new Map<symbol, string>();
  private readonly kernel = new Set<symbol>();

  constructor(private readonly container: DependencyContainer, private readonly plugins: ReadonlyMap<string, Plugin>) {}

  /** A kernel service. */
  add<T>(token: ServiceToken<T>, factory: ServiceFactory<T>): void {
    this.kernel.add(token);
    this.container.register(token, { useFactory: instanceCachingFactory(() => factory(this.kernelResolver)) });
  }

  /** What a plugin provides, checked against what is provided already. */
  provideFor(ctx: PluginContext): void {
    for (const { token, use } of ctx.plugin.provides ?? []) {
      const owner = this.kernel.has(token) ? 'the kernel' : this.owners.get(token);
      if (owner) throw new SettingsError(`plugin ${ctx.plugin.name}: provides the service ${tokenName(token)}, which ${owner === 'the kernel' ? owner : `plugin ${owner}`} provides already`);
      this.owners.set(token, ctx.plugin.name);
      this.container.register(token, { useFactory: instanceCachingFactory(() => use(ctx)) });
    }
  }

  /** The kernel's own view: every service. */
  readonly kernelResolver: ServiceResolver = { get: (token) => this.resolve(token) };

  /** Plugin `name`'s view: the kernel's services, its own and its dependencies' (their dependencies' included). */
  resolverFor(name: string): ServiceResolver {
    return {
      get: (token) => {
        const owner = this.owners.get(token);
        if (owner && owner !== name && !dependsOn(this.plugins.get(name)!, owner, this.plugins)) {
          throw new SettingsError(`plugin ${name}: uses the service ${tokenName(token)} of plugin ${owner}, which is not among its dependencies`);
        }
        return this.resolve(token);
      },
    };
  }

  private resolve<T>(token: ServiceToken<T>): T {
    if (!this.kernel.has(token) && !this.owners.has(token)) throw new SettingsError(`no enabled plugin provides the service ${tokenName(token)}`);
    return this.container.resolve(token);
  }
}
