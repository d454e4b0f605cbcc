import { createContext, useContext, type ReactNode } from 'react';
import { useStore, type StoreApi } from 'zustand';
import type { LoopControls } from '../engine/events.js';
import type { FixcycleStore } from '../state/store.js';
import type { UiStore } from '../state/ui-store.js';
import type { Theme } from './theme.js';

/** What every view of the TUI reads from: the session store, the UI store, the theme and the loop's controls. */
export interface TuiContextValue {
  session: StoreApi<FixcycleStore>;
  ui: StoreApi<UiStore>;
  /** Null in watch mode: another process drives the loop. */
  controls: LoopControls | null;
  theme: Theme;
  /** Shown in the header: `fixcycle` unless the caller names it. */
  title: string;
  /** True for `fixcycle demo`: the header says so. */
  demo: boolean;
  /** `fixcycle watch --follow` and the pane: the repository followed; the header names the session shown. */
  follow?: string | null;
}

const TuiContext = createContext<TuiContextValue | null>(null);

export function TuiProvider({ value, children }: { value: TuiContextValue; children: ReactNode }) {
  return <TuiContext.Provider value={value}>{children}</TuiContext.Provider>;
}

export function useTui(): TuiContextValue {
  const value = useContext(TuiContext);
  if (!value) throw new Error('TUI views must be rendered inside <TuiProvider>');
  return value;
}

/**
 * Reads the session store. Select plain values (or wrap with `useShallow`): a selector that
 * builds a new array on every call makes zustand 5 re-render forever.
 */
export function useSession<T>(selector: (state: FixcycleStore) => T): T {
  return useStore(useTui().session, selector);
}

/** Reads the UI store, with the same rule for selectors as `useSession`. */
export function useUi<T>(selector: (state: UiStore) => T): T {
  return useStore(useTui().ui, selector);
}

export function useTheme(): Theme {
  return useTui().theme;
}
