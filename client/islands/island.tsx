// Islands: the parts of a server-rendered page that hydrate in the browser.
//
// A page is one React tree, rendered once on the server (in QuickJS). Wrapping a component
// with `defineIsland` marks where the browser takes over: the server writes the component's
// markup inside `<div data-island="Name" data-props="{…}">`, and in the browser the island
// runtime (client/runtime.tsx) hydrates that element alone, with those props, on the
// visitor's first interaction (or after paint for an `eager` island). Everything outside an island stays
// plain server HTML, and its components never reach the browser bundle.
//
// One island is one file in client/islands/ whose default export is
// `defineIsland("<file name>", Component)`. The build finds it there; see
// docs/decisions/004-islands.md.

import { type ComponentType, createContext, type JSX, useContext } from "react";

/** `T` when it survives JSON unchanged (plain data, no functions or elements), else never. */
export type Plain<T> = T extends string | number | boolean | null | undefined
  ? T
  : T extends readonly (infer U)[]
    ? readonly Plain<U>[]
    : T extends (...args: never[]) => unknown
      ? never
      : { [K in keyof T]: Plain<T[K]> };

/** Islands that start as soon as the page has painted instead of on the visitor's first
 * interaction (see `eager`). */
const EAGER = new Set<string>();

/** Islands that also start right after paint when the page's address names one of their
 * dialogs (see `wakesOn`): island name → the fragments, space-separated. */
const WAKE = new Map<string, string>();

/** True inside an island: a nested island renders as a plain part of its parent. */
const InsideIsland = createContext(false);

export interface Island<P> {
  (props: P): JSX.Element;
  /** The file name in client/islands/, which is also the `data-island` value. */
  readonly islandName: string;
  /** The component the browser hydrates. */
  readonly Component: ComponentType<P>;
}

/** Declares an island. Its props must be plain data: they travel as JSON in `data-props`
 * (a callback or an element among them is a type error here). */
export function defineIsland<P extends object>(
  name: string,
  Component: ComponentType<P>,
  ..._plain: P extends Plain<P> ? [] : ["island props must be plain data: they travel as JSON"]
): Island<P> {
  function IslandRoot(props: P): JSX.Element {
    const nested = useContext(InsideIsland);
    if (nested) return <Component {...(props as P & JSX.IntrinsicAttributes)} />;
    return (
      // display: contents, so the wrapper never changes the layout around the island.
      <div
        data-island={name}
        data-props={JSON.stringify(props)}
        data-eager={EAGER.has(name) ? "" : undefined}
        data-wake={WAKE.get(name)}
        className="contents"
      >
        <IslandTree Component={Component} props={props} />
      </div>
    );
  }
  return Object.assign(IslandRoot, { islandName: name, Component });
}

/** Marks an island that must run as soon as the page has painted, not on the visitor's
 * first interaction: one that starts something by itself (a script the operator switched
 * on). Its presence on a page makes the whole page hydrate after paint, so use it rarely. */
export function eager<P>(island: Island<P>): Island<P> {
  EAGER.add(island.islandName);
  return island;
}

/** Marks an island whose dialogs have their own address (`#fragment`): when the page is
 * opened at one of `fragments` (a reload, the back button), it starts right after paint, like
 * an eager island, so the dialog comes back without waiting for the visitor; otherwise it
 * waits for the first interaction like any other. */
export function wakesOn<P>(island: Island<P>, fragments: readonly string[]): Island<P> {
  WAKE.set(island.islandName, fragments.join(" "));
  return island;
}

/** What is rendered inside the island element: the same on the server and in the browser. */
export function IslandTree<P>({ Component, props }: { Component: ComponentType<P>; props: P }): JSX.Element {
  return (
    <InsideIsland.Provider value={true}>
      <Component {...(props as P & JSX.IntrinsicAttributes)} />
    </InsideIsland.Provider>
  );
}
