import { type ComponentType, lazy, useState } from "react";

/**
 * A screen in a chunk of its own. `preload()` starts (once) the download;
 * a View mounted after the chunk arrived renders it at once, one mounted
 * before waits inside the nearest Suspense. The choice is made once per
 * mount, so a re-render never swaps the component and loses its state.
 */
export function chunkView<P extends object>(load: () => Promise<ComponentType<P>>) {
  let ready: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    pending ??= load().then(
      (c) => (ready = c),
      (err) => {
        pending = undefined; // a failed download (offline) is tried again by the next mount
        throw err;
      },
    );
    return pending;
  };
  const Lazy = lazy(async () => ({ default: await preload() }));
  function View(props: P) {
    const [C] = useState<ComponentType<P>>(() => ready ?? Lazy);
    return <C {...props} />;
  }
  return { View, preload };
}
