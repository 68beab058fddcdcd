import type { ComponentType } from 'react';

/**
 * A screen loaded when first opened (the module exporting it as `name`): the public lookup and profile
 * stay light, and the owners' and administrators' screens cost nothing until someone signs in.
 */
export function page<Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name) {
  return async () => ({ Component: (await load())[name] });
}
